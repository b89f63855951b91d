package io.mcpwire.stdio.buffer;

/**
 * A circular byte buffer that starts small and doubles, only once it is full, up to its capacity:
 * a hand-off between two threads allocates nothing more however many bytes pass through it. Not
 * thread-safe: its owner holds a lock around every call.
 */
public final class ByteRing {
    private final int capacity;
    private byte[] ring;
    private int head; // the next byte to take
    private int size;

    /** A ring of {@code initial} bytes that may grow to {@code capacity}. */
    public ByteRing(int initial, int capacity) {
        if (initial < 1 || capacity < initial) {
            throw new IllegalArgumentException("initial " + initial + ", capacity " + capacity);
        }
        this.capacity = capacity;
        this.ring = new byte[initial];
    }

    /** The bytes held. */
    public int size() {
        return size;
    }

    /** Whether it holds its capacity: nothing more can be put. */
    public boolean isFull() {
        return size == capacity;
    }

    /**
     * Copies in as much of {@code b[off, off + len)} as fits in one run, growing first if the ring
     * is full and may grow; how many bytes it took, 0 when it is at capacity.
     */
    public int put(byte[] b, int off, int len) {
        if (size == ring.length && ring.length < capacity) {
            grow();
        }
        int tail = (head + size) % ring.length;
        int n = Math.min(len, Math.min(ring.length - size, ring.length - tail));
        System.arraycopy(b, off, ring, tail, n);
        size += n;
        return n;
    }

    /** Copies out up to {@code len} held bytes in one run; how many, 0 when it is empty. */
    public int take(byte[] b, int off, int len) {
        int n = Math.min(len, Math.min(size, ring.length - head));
        System.arraycopy(ring, head, b, off, n);
        head = (head + n) % ring.length;
        size -= n;
        return n;
    }

    /** Drops every byte held; returns how many. */
    public int clear() {
        int dropped = size;
        head = 0;
        size = 0;
        return dropped;
    }

    /** Doubles the full ring, up to the capacity, its bytes laid out from the start. */
    private void grow() {
        byte[] larger = new byte[(int) Math.min(capacity, 2L * ring.length)];
        int first = ring.length - head;
        System.arraycopy(ring, head, larger, 0, first);
        System.arraycopy(ring, 0, larger, first, head);
        ring = larger;
        head = 0;
    }
}
