package io.mcpwire.platform.test;

import io.mcpwire.platform.rules.NativeMemory;

/** The "native" memory of the fake's Win32 binding: bytes on the heap, little-endian as on Windows. */
final class ModelMemory implements NativeMemory {
    /** The bytes. */
    final byte[] bytes;

    /** {@code size} zeroed bytes. */
    ModelMemory(long size) {
        bytes = new byte[Math.toIntExact(size)];
    }

    @Override
    public void putInt(long offset, int value) {
        for (int i = 0; i < 4; i++) {
            bytes[(int) offset + i] = (byte) (value >>> (8 * i));
        }
    }

    @Override
    public short getShort(long offset) {
        return (short) ((bytes[(int) offset] & 0xff) | (bytes[(int) offset + 1] << 8));
    }

    @Override
    public void write(long offset, byte[] source, int from, int n) {
        System.arraycopy(source, from, bytes, (int) offset, n);
    }

    @Override
    public void read(long offset, byte[] target, int to, int n) {
        System.arraycopy(bytes, (int) offset, target, to, n);
    }
}
