package io.mcpwire.benchmarks.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The answer lines of one batch, kept as they arrived so that each is parsed and checked after
 * the batch's clock has stopped: parsing while the server runs would take the client's share of two
 * cores from it, and more from a fast server than from a slow one. Lines are stored whole, each in
 * one block. One thread.
 */
final class AnswerLog implements LineVisitor {
    private static final int BLOCK = 4 << 20;
    private final List<byte[]> blocks = new ArrayList<>();
    /** Per line: its block, its offset in it, its length. */
    private int[] index = new int[3 * 1024];
    private int lines;
    private byte[] current;
    private int used;

    /** Stores a copy of the line. */
    @Override
    public void line(byte[] b, int offset, int length) {
        if (current == null || used + length > current.length) {
            current = new byte[Math.max(BLOCK, length)];
            blocks.add(current);
            used = 0;
        }
        System.arraycopy(b, offset, current, used, length);
        if (3 * lines + 3 > index.length) {
            index = Arrays.copyOf(index, index.length * 2);
        }
        index[3 * lines] = blocks.size() - 1;
        index[3 * lines + 1] = used;
        index[3 * lines + 2] = length;
        lines++;
        used += length;
    }

    int size() {
        return lines;
    }

    /** Gives every line, in the order it arrived. */
    void forEach(LineVisitor visitor) {
        for (int i = 0; i < lines; i++) {
            visitor.line(blocks.get(index[3 * i]), index[3 * i + 1], index[3 * i + 2]);
        }
    }
}
