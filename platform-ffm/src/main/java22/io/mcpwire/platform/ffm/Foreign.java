package io.mcpwire.platform.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.mcpwire.platform.rules.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * What both foreign bindings share: the linker, the calling thread's call-state segment (where
 * {@link Linker.Option#captureCallState} leaves {@code errno} and, on Windows,
 * {@code GetLastError()}), downcall handles made on first use, and native memory.
 */
final class Foreign {
    static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final ThreadLocal<MemorySegment> CALL_STATE = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(STATE));

    private Foreign() {
    }

    /** The calling thread's call-state segment, the first argument of every capturing handle. */
    static MemorySegment state() {
        return CALL_STATE.get();
    }

    /**
     * Where a call state holds the captured {@code int} {@code name} (for example {@code "errno"}),
     * read with a plain {@code get}: a layout's var handle would cost a few milliseconds of
     * start-up to spin.
     */
    static long capturedOffset(String name) {
        return STATE.byteOffset(MemoryLayout.PathElement.groupElement(name));
    }

    /** A native call failed in the JVM, not in C: no binding error is ever expected here. */
    static IllegalStateException failed(String call, Throwable t) {
        return new IllegalStateException("the foreign call " + call + " failed: " + t, t);
    }

    /** Native memory from an automatic arena: freed when no longer reachable. */
    record Memory(MemorySegment segment) implements NativeMemory {
        /** {@code bytes} bytes, zeroed, 8-byte aligned. */
        static Memory allocate(long bytes) {
            return new Memory(Arena.ofAuto().allocate(bytes, 8));
        }

        static MemorySegment of(NativeMemory m) {
            return ((Memory) m).segment();
        }

        @Override
        public void putInt(long offset, int value) {
            segment.set(JAVA_INT, offset, value);
        }

        @Override
        public short getShort(long offset) {
            return segment.get(JAVA_SHORT, offset);
        }

        @Override
        public void write(long offset, byte[] source, int from, int n) {
            MemorySegment.copy(source, from, segment, JAVA_BYTE, offset, n);
        }

        @Override
        public void read(long offset, byte[] target, int to, int n) {
            MemorySegment.copy(segment, JAVA_BYTE, offset, target, to, n);
        }
    }
}
