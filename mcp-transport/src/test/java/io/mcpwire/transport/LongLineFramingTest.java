package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.transport.engine.LineFramer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Lines longer than the framer's 1 MiB buffer, kept in blocks: whole when within the limit, skipped past it. */
class LongLineFramingTest {
    private static final int MIB = 1024 * 1024;
    private static final int LIMIT = 3 * MIB;

    /** Reads {@code input} in pieces of random sizes, as a pipe gives them. */
    private static List<String> frame(byte[] input, long seed) throws IOException {
        Random random = new Random(seed);
        InputStream in = new InputStream() {
            int at;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (at == input.length) {
                    return -1;
                }
                int n = Math.min(Math.min(len, input.length - at), 1 + random.nextInt(200_000));
                System.arraycopy(input, at, b, off, n);
                at += n;
                return n;
            }
        };
        LineFramer framer = new LineFramer(LIMIT);
        List<String> out = new ArrayList<>();
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                byte[] line = Arrays.copyOfRange(buffer, offset, offset + length);
                out.add("line " + length + " " + (char) line[0] + (char) line[length - 1]);
            }

            @Override
            public void oversized(long length, java.util.Optional<io.mcpwire.jsonrpc.RequestId> id) {
                out.add("oversized " + length);
            }
        };
        while (framer.readFrom(in, sink)) {
            // every line is handed over as it completes
        }
        assertTrue(framer.peakBufferBytes() <= LIMIT + 2, "bounded: " + framer.peakBufferBytes());
        return out;
    }

    private static byte[] line(int length, char first, char last, String end) {
        byte[] b = new byte[length + end.length()];
        Arrays.fill(b, 0, length, (byte) 'x');
        b[0] = (byte) first;
        b[length - 1] = (byte) last;
        System.arraycopy(end.getBytes(StandardCharsets.US_ASCII), 0, b, length, end.length());
        return b;
    }

    @Test
    void withASmallLimitTheBufferStaysSmallWhateverStreamsPast() throws IOException {
        LineFramer framer = new LineFramer(1024);
        byte[] garbage = new byte[5_000_000]; // no line end: skipped as it streams
        List<Long> oversized = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                lines.add(length);
            }

            @Override
            public void oversized(long length, java.util.Optional<io.mcpwire.jsonrpc.RequestId> id) {
                oversized.add(length);
            }
        };
        InputStream in = new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(garbage),
                new java.io.ByteArrayInputStream("\n{}\n".getBytes(StandardCharsets.US_ASCII)));
        while (framer.readFrom(in, sink)) {
            // every line is handed over as it completes
        }
        assertEquals(List.of(5_000_000L), oversized);
        assertEquals(List.of(2), lines, "the line after it is whole");
        assertTrue(framer.peakBufferBytes() <= 1026, "bounded by the limit: " + framer.peakBufferBytes());
    }

    @Test
    void longLinesAreWholeWithinTheLimitAndSkippedPastIt() throws IOException {
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes(line(2 * MIB + 17, 'a', 'b', "\n"));
        input.writeBytes(line(LIMIT, 'c', 'd', "\r\n"));         // exactly the limit, with \r\n
        input.writeBytes(line(LIMIT + 1, 'e', 'f', "\n"));       // one byte over
        input.writeBytes(line(10, 'g', 'h', "\n"));
        input.writeBytes(line(9 * MIB, 'i', 'j', "\n"));         // far over: skipped as it streams
        input.writeBytes(line(MIB, 'k', 'l', "\n"));             // exactly one buffer
        input.writeBytes(line(MIB + 1, 'm', 'n', ""));           // the last, with no terminator
        byte[] bytes = input.toByteArray();
        List<String> expected = List.of("line " + (2 * MIB + 17) + " ab", "line " + LIMIT + " cd", "oversized " + (LIMIT + 1),
                "line 10 gh", "oversized " + 9 * MIB, "line " + MIB + " kl", "line " + (MIB + 1) + " mn");
        for (long seed = 1; seed <= 5; seed++) {
            assertEquals(expected, frame(bytes, seed), "reads of seed " + seed);
        }
    }
}
