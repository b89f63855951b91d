package io.mcpwire.platform.rules;

/**
 * A block of native memory, as a binding allocates it (JNA's {@code Memory}, a
 * {@code MemorySegment}): the buffers and {@code pollfd} entries the streams hand to the C
 * library, written and read at byte offsets in native byte order.
 */
public interface NativeMemory {

    /** Writes an {@code int} at {@code offset}. */
    void putInt(long offset, int value);

    /** Reads a {@code short} at {@code offset}. */
    short getShort(long offset);

    /** Copies {@code n} bytes of {@code source} from {@code from} to {@code offset}. */
    void write(long offset, byte[] source, int from, int n);

    /** Copies {@code n} bytes at {@code offset} into {@code target} from {@code to}. */
    void read(long offset, byte[] target, int to, int n);
}
