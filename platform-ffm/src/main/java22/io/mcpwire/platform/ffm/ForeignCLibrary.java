package io.mcpwire.platform.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.mcpwire.platform.support.posix.CLibrary;
import io.mcpwire.platform.support.posix.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * The C library through {@code java.lang.foreign} (Java 22). Every call captures {@code errno}
 * into the calling thread's own state segment ({@link Linker.Option#captureCallState}), read by
 * {@link #errno()}. The variadic arguments of {@code fcntl} and {@code open} are declared with
 * {@link Linker.Option#firstVariadicArg}, so that they travel where Apple's arm64 convention puts
 * them (on the stack); {@code poll} is bound with {@code nfds_t} both as {@code unsigned long} and
 * as {@code unsigned int}. Loaded only on JDK 22 or newer, by {@link FfmDescriptors}.
 */
public final class ForeignCLibrary implements CLibrary {
    private static final int MAXPATHLEN = 1024;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> CALL_STATE = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(STATE));

    // Each downcall stub is spun on first use (some 10 ms each at start-up), so that a claim on
    // Linux never pays for the ones only macOS or an error needs.
    private final Lazy fcntlInt = errnoCapturing("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), 2);
    private final Lazy fcntlPointer = errnoCapturing("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), 2);
    private final Lazy open = errnoCapturing("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), 2);
    private final Lazy dup2 = errnoCapturing("dup2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), -1);
    private final Lazy close = errnoCapturing("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), -1);
    private final Lazy isatty = errnoCapturing("isatty", FunctionDescriptor.of(JAVA_INT, JAVA_INT), -1);
    private final Lazy pipe = errnoCapturing("pipe", FunctionDescriptor.of(JAVA_INT, ADDRESS), -1);
    private final Lazy strerror = new Lazy(() -> LINKER.downcallHandle(symbol("strerror"), FunctionDescriptor.of(ADDRESS, JAVA_INT)));
    private final Lazy read = errnoCapturing("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), -1);
    private final Lazy write = errnoCapturing("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), -1);
    private final Lazy pollLong = errnoCapturing("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), -1);
    private final Lazy pollInt = errnoCapturing("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), -1);

    private ForeignCLibrary() {
        symbol("fcntl"); // the C library is there, or the load fails now rather than at the first call
    }

    /** A downcall handle made on first use; made twice at worst, by two racing threads, both alike. */
    private static final class Lazy {
        private final Supplier<MethodHandle> make;
        private volatile MethodHandle handle;

        Lazy(Supplier<MethodHandle> make) {
            this.make = make;
        }

        MethodHandle get() {
            MethodHandle h = handle;
            if (h == null) {
                h = make.get();
                handle = h;
            }
            return h;
        }
    }

    /** Binds the C library; throws what the linker threw. */
    public static ForeignCLibrary load() {
        return new ForeignCLibrary();
    }

    private static MemorySegment symbol(String name) {
        return LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsupportedOperationException("the C library has no " + name));
    }

    /** A handle whose first parameter is the call-state segment; {@code firstVariadic} < 0 for none. */
    private static Lazy errnoCapturing(String name, FunctionDescriptor descriptor, int firstVariadic) {
        Linker.Option capture = Linker.Option.captureCallState("errno");
        return new Lazy(() -> firstVariadic < 0
                ? LINKER.downcallHandle(symbol(name), descriptor, capture)
                : LINKER.downcallHandle(symbol(name), descriptor, capture, Linker.Option.firstVariadicArg(firstVariadic)));
    }

    private static MemorySegment state() {
        return CALL_STATE.get();
    }

    /** A native call failed in the JVM, not in C: no binding error is ever expected here. */
    private static IllegalStateException failed(String call, Throwable t) {
        return new IllegalStateException("the foreign call " + call + " failed: " + t, t);
    }

    /** Native memory from an automatic arena: freed when no longer reachable. */
    private record Segment(MemorySegment segment) implements NativeMemory {
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

    private static MemorySegment of(NativeMemory m) {
        return ((Segment) m).segment();
    }

    @Override
    public int fcntl(int fd, int cmd) {
        return fcntl(fd, cmd, 0); // the unused variadic argument is ignored
    }

    @Override
    public int fcntl(int fd, int cmd, int arg) {
        try {
            return (int) fcntlInt.get().invokeExact(state(), fd, cmd, arg);
        } catch (Throwable t) {
            throw failed("fcntl", t);
        }
    }

    @Override
    public String fcntlPath(int fd, int cmd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(MAXPATHLEN);
            int r = (int) fcntlPointer.get().invokeExact(state(), fd, cmd, buffer);
            return r < 0 ? null : buffer.getString(0);
        } catch (Throwable t) {
            throw failed("fcntl", t);
        }
    }

    @Override
    public int open(String path, int flags) {
        return open(path, flags, 0); // without O_CREAT the mode is not read
    }

    @Override
    public int open(String path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) open.get().invokeExact(state(), arena.allocateFrom(path), flags, mode);
        } catch (Throwable t) {
            throw failed("open", t);
        }
    }

    @Override
    public int dup2(int source, int target) {
        try {
            return (int) dup2.get().invokeExact(state(), source, target);
        } catch (Throwable t) {
            throw failed("dup2", t);
        }
    }

    @Override
    public int close(int fd) {
        try {
            return (int) close.get().invokeExact(state(), fd);
        } catch (Throwable t) {
            throw failed("close", t);
        }
    }

    @Override
    public int isatty(int fd) {
        try {
            return (int) isatty.get().invokeExact(state(), fd);
        } catch (Throwable t) {
            throw failed("isatty", t);
        }
    }

    @Override
    public int pipe(int[] fds) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ends = arena.allocate(JAVA_INT, 2);
            int r = (int) pipe.get().invokeExact(state(), ends);
            fds[0] = ends.getAtIndex(JAVA_INT, 0);
            fds[1] = ends.getAtIndex(JAVA_INT, 1);
            return r;
        } catch (Throwable t) {
            throw failed("pipe", t);
        }
    }

    @Override
    public String strerror(int errno) {
        try {
            MemorySegment text = (MemorySegment) strerror.get().invokeExact(errno);
            return text.equals(MemorySegment.NULL) ? "errno " + errno : text.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            throw failed("strerror", t);
        }
    }

    @Override
    public int errno() {
        return (int) ERRNO.get(state(), 0L);
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return new Segment(Arena.ofAuto().allocate(bytes, 8));
    }

    @Override
    public long read(int fd, NativeMemory buffer, long count) {
        try {
            return (long) read.get().invokeExact(state(), fd, of(buffer), count);
        } catch (Throwable t) {
            throw failed("read", t);
        }
    }

    @Override
    public long write(int fd, NativeMemory buffer, long offset, long count) {
        try {
            return (long) write.get().invokeExact(state(), fd, of(buffer).asSlice(offset), count);
        } catch (Throwable t) {
            throw failed("write", t);
        }
    }

    @Override
    public int poll(NativeMemory fds, int nfds, int timeoutMillis, boolean nfdsIsInt) {
        try {
            return nfdsIsInt
                    ? (int) pollInt.get().invokeExact(state(), of(fds), nfds, timeoutMillis)
                    : (int) pollLong.get().invokeExact(state(), of(fds), (long) nfds, timeoutMillis);
        } catch (Throwable t) {
            throw failed("poll", t);
        }
    }
}
