package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.stdio.buffer.ByteRing;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** The ring both hand-offs use: bytes come out in order across the wrap and the growth, and never beyond its capacity. */
class ByteRingTest {
    @Test
    void bytesComeOutInOrderAcrossWrapsAndGrowthAndNoMoreThanTheCapacityIsHeld() {
        ByteRing ring = new ByteRing(4, 16);
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[7];
        byte[] taken = new byte[5];
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < chunk.length; i++) {
                chunk[i] = (byte) (round * 7 + i);
            }
            int off = 0;
            while (off < chunk.length && !ring.isFull()) {
                off += ring.put(chunk, off, chunk.length - off);
            }
            in.write(chunk, 0, off);
            assertTrue(ring.size() <= 16, "held " + ring.size());
            int n = ring.take(taken, 0, round % 2 == 0 ? 5 : 3);
            out.write(taken, 0, n);
        }
        while (ring.size() > 0) {
            out.write(taken, 0, ring.take(taken, 0, taken.length));
        }
        assertArrayEquals(in.toByteArray(), out.toByteArray());
    }

    @Test
    void aFullRingTakesNothingAndClearSaysWhatItDropped() {
        ByteRing ring = new ByteRing(2, 8);
        byte[] eight = new byte[8];
        int put = 0;
        while (put < 8) {
            put += ring.put(eight, put, 8 - put);
        }
        assertTrue(ring.isFull());
        assertEquals(0, ring.put(eight, 0, 1));
        assertEquals(8, ring.clear());
        assertEquals(0, ring.size());
    }
}
