package io.mcpwire.platform.ffm;

import static io.mcpwire.platform.ffm.Foreign.LINKER;
import static io.mcpwire.platform.ffm.Foreign.failed;
import static io.mcpwire.platform.ffm.Foreign.state;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.mcpwire.platform.ffm.Foreign.Lazy;
import io.mcpwire.platform.ffm.Foreign.Memory;
import io.mcpwire.platform.support.NativeMemory;
import io.mcpwire.platform.support.posix.CLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

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
    private static final VarHandle ERRNO = Foreign.captured("errno");

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
        return Foreign.Memory.allocate(bytes);
    }

    @Override
    public long read(int fd, NativeMemory buffer, long count) {
        try {
            return (long) read.get().invokeExact(state(), fd, Memory.of(buffer), count);
        } catch (Throwable t) {
            throw failed("read", t);
        }
    }

    @Override
    public long write(int fd, NativeMemory buffer, long offset, long count) {
        try {
            return (long) write.get().invokeExact(state(), fd, Memory.of(buffer).asSlice(offset), count);
        } catch (Throwable t) {
            throw failed("write", t);
        }
    }

    @Override
    public int poll(NativeMemory fds, int nfds, int timeoutMillis, boolean nfdsIsInt) {
        try {
            return nfdsIsInt
                    ? (int) pollInt.get().invokeExact(state(), Memory.of(fds), nfds, timeoutMillis)
                    : (int) pollLong.get().invokeExact(state(), Memory.of(fds), (long) nfds, timeoutMillis);
        } catch (Throwable t) {
            throw failed("poll", t);
        }
    }
}
