package io.mcpwire.platform.rules;

/** "Native" memory on the heap, for a binding over a model rather than the OS: the fake's, and scripted ones in tests. */
public final class HeapMemory implements NativeMemory {
    /** The bytes. */
    public final byte[] bytes;

    /** {@code size} zeroed bytes. */
    public HeapMemory(long size) {
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
