package io.mcpwire.transport.engine;

import io.mcpwire.transport.engine.OutboundQueue.Frame;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects one encoded message and turns it into a {@link Frame}: into a reusable 64 KiB head
 * first, then, for a larger message, into 256 KiB chunks that become the frame's parts as they
 * are. A small message costs one exact copy; a large one never a copy of the whole. One per
 * sending thread; not thread-safe.
 */
public final class FrameBuilder extends OutputStream {
    private static final int HEAD = 64 * 1024;
    private static final int CHUNK = 256 * 1024;

    private final byte[] head = new byte[HEAD];
    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] current = head;
    private int position;
    private long size;

    /** Starts a new message. */
    public void reset() {
        chunks.clear();
        current = head;
        position = 0;
        size = 0;
    }

    /** The bytes written since {@link #reset()}. */
    public long size() {
        return size;
    }

    @Override
    public void write(int b) {
        if (position == current.length) {
            next();
        }
        current[position++] = (byte) b;
        size++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        while (len > 0) {
            if (position == current.length) {
                next();
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(b, off, current, position, n);
            position += n;
            off += n;
            len -= n;
            size += n;
        }
    }

    private void next() {
        current = new byte[CHUNK];
        chunks.add(current);
        position = 0;
    }

    /** Appends the line terminator and returns the frame; the builder may then be reset. */
    public Frame toFrame() {
        write('\n');
        if (chunks.isEmpty()) {
            return new Frame(new byte[][] {Arrays.copyOf(head, position)}, position);
        }
        byte[][] parts = new byte[chunks.size() + 1][];
        parts[0] = head.clone(); // the head is reused; the chunks are handed over as they are
        for (int i = 0; i < chunks.size(); i++) {
            parts[i + 1] = chunks.get(i);
        }
        parts[parts.length - 1] = Arrays.copyOf(current, position);
        chunks.clear();
        return new Frame(parts, (int) size);
    }
}
