package io.mcpwire.transport.engine;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.RequestId;

/**
 * Splits a byte stream into lines in bounded memory: {@code \n} or {@code \r\n} ends a line,
 * blank lines are skipped, a UTF-8 byte order mark at the start of the stream is dropped, and a
 * line longer than the limit is skipped as it streams past (never buffered whole) and reported
 * with its length. The buffer grows to 1 MiB at most; a line longer than that is kept in blocks of
 * 1 MiB, never more than the limit plus two bytes in all, and made one array only once it is whole
 * and within the limit: no large array is allocated, and left to the collector, for a line that
 * turns out too long. Not thread-safe: one reading thread.
 */
public final class LineFramer {

    /** Receives what the framer finds, on the reading thread. */
    public interface Sink {
        /** One line, without its terminator, in {@code buffer[offset, offset + length)}. */
        void line(byte[] buffer, int offset, int length);

        /**
         * A line of {@code length} bytes, over the limit, was skipped; {@code id} is its request
         * id, when it was a request whose id could be read as it streamed past.
         */
        void oversized(long length, Optional<RequestId> id);
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int INITIAL = 64 * 1024;
    private static final byte[] BYTE_ORDER_MARK = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final int SHRINK_ABOVE = 1024 * 1024;

    private final int maxLine;
    private final JsonRpcCodec.Limits limits;
    private final int capacity;
    private byte[] buffer;
    private int start;
    private int end;
    private int scanned;
    private boolean atStreamStart = true;
    private boolean skipping;
    private long skipped;
    /** Whether the last byte skipped was {@code \r}: a terminator's, not the line's, if {@code \n} follows or the stream ends. */
    private boolean skippedCarriageReturn;
    /** Reads the request id of the line being skipped, as it streams past; fresh for each such line. */
    private OversizedRequestId skippedId;
    private int peak;
    /** The blocks of a line longer than one buffer, in order, with {@code buffer[start, end)} after them. */
    private final List<byte[]> blocks = new ArrayList<>();
    private long blockBytes;

    /** A framer for lines of at most {@code maxLineBytes} bytes, decoded by a codec with the default limits. */
    public LineFramer(int maxLineBytes) {
        this(maxLineBytes, JsonRpcCodec.Limits.DEFAULT);
    }

    /**
     * A framer for lines of at most {@code maxLineBytes} bytes; an oversized line's id is read only
     * where a codec would read it from the whole line, and no deeper than {@code limits}' nesting depth.
     */
    public LineFramer(int maxLineBytes, JsonRpcCodec.Limits limits) {
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes < 1");
        }
        this.maxLine = maxLineBytes;
        this.limits = limits;
        this.skippedId = new OversizedRequestId(limits);
        this.capacity = (int) Math.min(Integer.MAX_VALUE - 8, (long) maxLineBytes + 2); // a full line, \r and \n
        this.buffer = new byte[Math.min(INITIAL, capacity)];
        this.peak = buffer.length;
    }

    /**
     * Whether bytes after the line being handed over are already buffered: more requests are
     * probably on their way, so an answer can wait to be written together with theirs.
     */
    public boolean moreBuffered() {
        return end > start;
    }

    /** The most bytes the framer has held at once, its buffer and a long line's blocks. */
    public int peakBufferBytes() {
        return peak;
    }

    /**
     * Reads once from {@code in} and hands every complete line to {@code sink}.
     *
     * @return false at end of input, after handing over a last line that had no terminator
     */
    public boolean readFrom(InputStream in, Sink sink) throws IOException {
        makeRoom();
        int n = in.read(buffer, end, buffer.length - end);
        if (n < 0) {
            finish(sink);
            return false;
        }
        end += n;
        scan(sink);
        return true;
    }

    private void makeRoom() {
        if (start == end) {
            start = 0;
            end = 0;
            scanned = 0;
            if (buffer.length > SHRINK_ABOVE || buffer.length < Math.min(INITIAL, capacity)) {
                buffer = new byte[Math.min(INITIAL, capacity)]; // a large message, or a long line's last block, passed
            }
        }
        if (end < buffer.length) {
            return;
        }
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            scanned -= start;
            start = 0;
        } else if (buffer.length >= SHRINK_ABOVE) {
            // A full buffer of one unfinished line: it becomes a block, and reading goes on in a fresh one.
            blocks.add(buffer);
            blockBytes += end;
            buffer = new byte[(int) Math.min(SHRINK_ABOVE, capacity - blockBytes)]; // never more than the limit in all
            start = 0;
            end = 0;
            scanned = 0;
            peak = (int) Math.max(peak, blockBytes + buffer.length);
        } else {
            byte[] grown = new byte[(int) Math.min(capacity, (long) buffer.length * 2)];
            System.arraycopy(buffer, 0, grown, 0, end);
            buffer = grown;
            peak = Math.max(peak, grown.length);
        }
    }

    private void scan(Sink sink) {
        dropByteOrderMark(false);
        scanned = Math.max(scanned, start);
        for (int i = indexOfNewline(buffer, scanned, end); i >= 0; i = indexOfNewline(buffer, i + 1, end)) {
            int from = start;
            start = i + 1; // before the sink runs, so that moreBuffered() looks past this line
            if (skipping) {
                skip(from, i);
                sink.oversized(skippedLength(), skippedId.id());
                skipping = false;
                skipped = 0;
                skippedCarriageReturn = false;
                skippedId = new OversizedRequestId(limits);
            } else if (!blocks.isEmpty()) {
                emitJoined(from, i, sink);
            } else {
                emit(buffer, from, i, sink);
            }
        }
        scanned = end;
        if (skipping) {
            skip(start, end);
            start = end;
        } else if (blockBytes + end - start > maxLine + 1) {
            // Already too long for any line (even one ending in \r\n): skip the rest as it comes.
            skipping = true;
            skipped = blockBytes;
            skippedCarriageReturn = false; // a read always adds to buffer[start, end): its last byte decides
            feedBlocks(skippedId);
            dropBlocks();
            skip(start, end);
            start = end;
        }
    }

    /** Skips {@code buffer[from, to)} of the line being skipped, its id read as it streams past. */
    private void skip(int from, int to) {
        skipped += to - from;
        skippedId.feed(buffer, from, to);
        if (to > from) {
            skippedCarriageReturn = buffer[to - 1] == '\r';
        }
    }

    /** The skipped line's length without its terminator's {@code \r}, as {@link #emit} counts a line. */
    private long skippedLength() {
        return skipped - (skippedCarriageReturn ? 1 : 0);
    }

    /** A long line ends at {@code buffer[to]}: its blocks and {@code buffer[from, to)} as one array. */
    private void emitJoined(int from, int to, LineFramer.Sink sink) {
        byte[] line = new byte[(int) (blockBytes + to - from)];
        int at = 0;
        for (int b = 0; b < blocks.size(); b++) {
            int n = b < blocks.size() - 1 ? blocks.get(b).length : (int) (blockBytes - at);
            System.arraycopy(blocks.get(b), 0, line, at, n);
            at += n;
        }
        System.arraycopy(buffer, from, line, at, to - from);
        dropBlocks();
        emit(line, 0, line.length, sink);
    }

    /** Hands a long line's blocks to {@code id}, in order. */
    private void feedBlocks(OversizedRequestId id) {
        long at = 0;
        for (int b = 0; b < blocks.size(); b++) {
            int n = b < blocks.size() - 1 ? blocks.get(b).length : (int) (blockBytes - at);
            id.feed(blocks.get(b), 0, n);
            at += n;
        }
    }

    private void dropBlocks() {
        blocks.clear();
        blockBytes = 0;
    }

    /** The first {@code \n} in {@code b[from, to)}, or -1; eight bytes at a time. */
    static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(b, i) ^ 0x0A0A0A0A0A0A0A0AL; // newline bytes become zero
            long zeros = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L;
            if (zeros != 0) {
                return i + (Long.numberOfTrailingZeros(zeros) >>> 3); // the lowest flag is exact
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void finish(Sink sink) {
        dropByteOrderMark(true);
        if (skipping) {
            skip(start, end);
            sink.oversized(skippedLength(), skippedId.id());
            skippedId = new OversizedRequestId(limits);
        } else if (!blocks.isEmpty()) {
            emitJoined(start, end, sink); // a last long line without a terminator
        } else if (end > start) {
            emit(buffer, start, end, sink); // a last line without a terminator
        }
        start = end;
        skipping = false;
    }

    /**
     * Drops a UTF-8 byte order mark at the very start of the stream, whatever the line it begins
     * and however the reads split it: while the bytes so far are only a prefix of one, it waits.
     */
    private void dropByteOrderMark(boolean ended) {
        if (!atStreamStart) {
            return;
        }
        int n = end - start;
        int matched = 0;
        while (matched < Math.min(n, 3) && buffer[start + matched] == BYTE_ORDER_MARK[matched]) {
            matched++;
        }
        if (matched == 3) {
            start += 3;
            atStreamStart = false;
        } else if (matched < n || ended) {
            atStreamStart = false; // no mark, or the stream ended inside one
        }
    }

    /** A line is oversized by its length alone (blank or not), else skipped when blank, else handed on. */
    private void emit(byte[] in, int from, int to, Sink sink) {
        if (to > from && in[to - 1] == '\r') {
            to--;
        }
        if (to - from > maxLine) {
            OversizedRequestId id = new OversizedRequestId(limits);
            id.feed(in, from, to);
            sink.oversized(to - from, id.id());
        } else if (!isBlank(in, from, to)) {
            sink.line(in, from, to - from);
        }
    }

    private static boolean isBlank(byte[] in, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = in[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
