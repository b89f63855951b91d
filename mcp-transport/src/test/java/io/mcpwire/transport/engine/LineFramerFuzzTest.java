package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpwire.jsonrpc.RequestId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The framer over any bytes cut into any reads hands on what a naive split on {@code \n} gives:
 * the same lines, the same oversized lines with the same lengths and ids, and it never holds more
 * than its bound.
 */
class LineFramerFuzzTest {

    /** What the framer hands on. */
    private sealed interface Event {
    }

    /** A line, its bytes as ISO-8859-1 text so that any byte compares. */
    private record Line(String bytes) implements Event {
    }

    /** An oversized line: its length without its terminator, and the id read as it streamed past. */
    private record Oversized(long length, Optional<RequestId> id) implements Event {
    }

    @FuzzTest
    void framesAsANaiveSplitOnNewlinesWhateverTheReads(FuzzedDataProvider data) throws IOException {
        int maxLine = data.consumeInt(1, 300);
        int[] reads = new int[data.consumeInt(0, 24)];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = data.consumeInt(1, 700);
        }
        byte[] input = data.consumeRemainingAsBytes();

        LineFramer framer = new LineFramer(maxLine);
        List<Event> events = frame(framer, input, reads);
        assertEquals(naiveSplit(input, maxLine), events, () -> "max " + maxLine + ", reads " + java.util.Arrays.toString(reads)
                + ", input " + latin1(input, 0, input.length).replace("\n", "\\n").replace("\r", "\\r"));
        assertTrue(framer.peakBufferBytes() <= Math.max(64 * 1024, maxLine + 2), () -> "held " + framer.peakBufferBytes());
    }

    private static List<Event> frame(LineFramer framer, byte[] input, int[] reads) throws IOException {
        List<Event> events = new ArrayList<>();
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                events.add(new Line(latin1(buffer, offset, length)));
            }

            @Override
            public void oversized(long length, Optional<RequestId> id) {
                events.add(new Oversized(length, id));
            }
        };
        InputStream in = new SplitInput(input, reads);
        while (framer.readFrom(in, sink)) {
            // each read hands complete lines to the sink
        }
        return events;
    }

    /**
     * The framing rules, plainly: a UTF-8 byte order mark at the very start is dropped; {@code \n}
     * ends a line and one {@code \r} before it (or at the end of the input) is not part of it; a line
     * longer than the limit is oversized, with its length and the id a scan of it finds; a blank
     * line is skipped; a last line without a terminator counts.
     */
    private static List<Event> naiveSplit(byte[] input, int maxLine) {
        boolean mark = input.length >= 3 && (input[0] & 0xFF) == 0xEF && (input[1] & 0xFF) == 0xBB && (input[2] & 0xFF) == 0xBF;
        List<Event> out = new ArrayList<>();
        for (int from = mark ? 3 : 0; from < input.length; ) {
            int newline = from;
            while (newline < input.length && input[newline] != '\n') {
                newline++;
            }
            int to = newline > from && input[newline - 1] == '\r' ? newline - 1 : newline;
            if (to - from > maxLine) {
                OversizedRequestId scan = new OversizedRequestId();
                scan.feed(input, from, to);
                out.add(new Oversized(to - from, scan.id()));
            } else if (!blank(input, from, to)) {
                out.add(new Line(latin1(input, from, to - from)));
            }
            from = newline + 1;
        }
        return out;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    private static String latin1(byte[] b, int offset, int length) {
        return new String(b, offset, length, StandardCharsets.ISO_8859_1);
    }

    /** Hands out the input in reads of the given sizes, then whatever is left in one. */
    private static final class SplitInput extends InputStream {
        private final byte[] input;
        private final int[] reads;
        private int position;
        private int next;

        SplitInput(byte[] input, int[] reads) {
            this.input = input;
            this.reads = reads;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position == input.length) {
                return -1;
            }
            int want = next < reads.length ? reads[next++] : input.length - position;
            int n = Math.min(Math.min(want, len), input.length - position);
            System.arraycopy(input, position, b, off, n);
            position += n;
            return n;
        }
    }
}
