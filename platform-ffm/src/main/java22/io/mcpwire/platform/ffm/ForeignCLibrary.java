package io.mcpwire.platform.ffm;

import static io.mcpwire.platform.ffm.Foreign.LINKER;
import static io.mcpwire.platform.ffm.Foreign.failed;
import static io.mcpwire.platform.ffm.Foreign.state;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.mcpwire.platform.ffm.Foreign.Memory;
import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.posix.CLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Reference;
import java.nio.charset.Charset;

/**
 * The C library through {@code java.lang.foreign} (Java 22), on 64-bit systems.
 *
 * <p>Every call goes through one of two call shapes: three 64-bit integer arguments and a 64-bit
 * result, either all fixed or with the third variadic (for {@code fcntl} and {@code open}, whose
 * third argument Apple's arm64 convention puts on the stack). Integers, {@code int}s and pointers
 * all travel in 64-bit integer registers or slots in every calling convention the JDK's linker
 * supports on 64-bit systems; a callee reads the low 32 bits of an {@code int} and ignores
 * arguments it does not take, and an {@code int} result is the low 32 bits of the 64-bit one. Each
 * shape is a downcall stub the linker spins at every start (some 15 to 35 ms each on JDK 25, which
 * an ahead-of-time cache does not keep), so where variadic integers travel in the same registers as
 * fixed ones (Linux on x86-64 and arm64, as for {@code syscall}) the fixed shape serves both.
 *
 * <p>Every call captures {@code errno} into the calling thread's own state segment
 * ({@link Linker.Option#captureCallState}), read by {@link #errno()}. Loaded only on JDK 22 or
 * newer, by {@link FfmPosix}.
 */
public final class ForeignCLibrary implements CLibrary {
    private static final int MAXPATHLEN = 1024;
    /** {@code SYS_pidfd_open}: one number on every Linux architecture since 5.3. */
    private static final long SYS_PIDFD_OPEN = 434;
    /** {@code struct pollfd}: an {@code int} and two {@code short}s on every POSIX system. */
    private static final long POLLFD_BYTES = 8;
    private static final long ERRNO = Foreign.capturedOffset("errno");
    /** How the JDK decodes file names, so that a path read here names what the JDK's would. */
    private static final Charset FILE_NAMES = fileNameCharset();
    private static final FunctionDescriptor WORDS = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);

    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");
    /**
     * Whether a variadic integer argument travels where a fixed one would: on Linux, x86-64 (a
     * callee's {@code va_arg} reads the integer registers it saved) and arm64 (AAPCS64 passes them
     * alike); not on Apple's arm64, which puts them on the stack.
     */
    static final boolean VARIADIC_AS_FIXED = variadicAsFixed(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));

    /** {@code (function, state, a, b, c)}, all three fixed. */
    private final MethodHandle fixed = LINKER.downcallHandle(WORDS, CAPTURE);
    /** {@code (function, state, a, b, c)}, {@code c} variadic: a stub of its own only where that differs. */
    private final MethodHandle variadic = VARIADIC_AS_FIXED ? fixed
            : LINKER.downcallHandle(WORDS, CAPTURE, Linker.Option.firstVariadicArg(2));

    private final CFunction fcntl = new CFunction("fcntl", variadic);
    private final CFunction open = new CFunction("open", variadic);
    private final CFunction dup2 = new CFunction("dup2", fixed);
    private final CFunction close = new CFunction("close", fixed);
    private final CFunction isatty = new CFunction("isatty", fixed);
    private final CFunction readlink = new CFunction("readlink", fixed);
    private final CFunction pipe = new CFunction("pipe", fixed);
    private final CFunction strerror = new CFunction("strerror", fixed);
    private final CFunction read = new CFunction("read", fixed);
    private final CFunction write = new CFunction("write", fixed);
    private final MemorySegment poll = symbol("poll");
    /**
     * {@code syscall}, variadic after the number; on Linux, the one system it is called on here,
     * x86-64 and arm64 pass the arguments in the same registers either way.
     */
    private final CFunction syscall = new CFunction("syscall", fixed);

    private ForeignCLibrary() {
    }

    /** A C function and the call shape it goes through. */
    private record CFunction(String name, MemorySegment address, MethodHandle shape) {
        CFunction(String name, MethodHandle shape) {
            this(name, symbol(name), shape);
        }

        long call(long a, long b, long c) {
            try {
                return (long) shape.invokeExact(address, state(), a, b, c);
            } catch (Throwable t) {
                throw failed(name, t);
            }
        }
    }

    /** Binds the C library; throws what the linker threw, or on a 32-bit system. */
    public static ForeignCLibrary load() {
        if (ADDRESS.byteSize() != Long.BYTES) {
            throw new UnsupportedOperationException("needs a 64-bit system (pointers here are " + ADDRESS.byteSize() + " bytes)");
        }
        return new ForeignCLibrary();
    }

    static boolean variadicAsFixed(String osName, String osArch) {
        return osName.equals("Linux") && (osArch.equals("amd64") || osArch.equals("x86_64") || osArch.equals("aarch64"));
    }

    private static Charset fileNameCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    private static MemorySegment symbol(String name) {
        return LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsupportedOperationException("the C library has no " + name));
    }

    @Override
    public int fcntl(int fd, int cmd) {
        return fcntl(fd, cmd, 0); // the unused variadic argument is ignored
    }

    @Override
    public int fcntl(int fd, int cmd, int arg) {
        return (int) fcntl.call(fd, cmd, arg);
    }

    @Override
    public String fcntlPath(int fd, int cmd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(MAXPATHLEN);
            int r = (int) fcntl.call(fd, cmd, buffer.address());
            return r < 0 ? null : buffer.getString(0);
        }
    }

    @Override
    public int open(String path, int flags) {
        return open(path, flags, 0); // without O_CREAT the mode is not read
    }

    @Override
    public int open(String path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) open.call(arena.allocateFrom(path).address(), flags, mode);
        }
    }

    @Override
    public int dup2(int source, int target) {
        return (int) dup2.call(source, target, 0);
    }

    @Override
    public int close(int fd) {
        return (int) close.call(fd, 0, 0);
    }

    /** The native call: some four times cheaper than the JDK's, and no stub of its own. */
    @Override
    public String readlink(String path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment target = arena.allocate(MAXPATHLEN);
            long n = readlink.call(arena.allocateFrom(path).address(), target.address(), MAXPATHLEN);
            // A target as long as the buffer may have been cut short: then there is none to give.
            return n < 0 || n >= MAXPATHLEN ? null : new String(target.asSlice(0, n).toArray(JAVA_BYTE), FILE_NAMES);
        }
    }

    @Override
    public int isatty(int fd) {
        return (int) isatty.call(fd, 0, 0);
    }

    @Override
    public int pipe(int[] fds) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ends = arena.allocate(JAVA_INT, 2);
            int r = (int) pipe.call(ends.address(), 0, 0);
            fds[0] = ends.getAtIndex(JAVA_INT, 0);
            fds[1] = ends.getAtIndex(JAVA_INT, 1);
            return r;
        }
    }

    @Override
    public String strerror(int errno) {
        long text = strerror.call(errno, 0, 0);
        return text == 0 ? "errno " + errno : MemorySegment.ofAddress(text).reinterpret(4096).getString(0);
    }

    @Override
    public int errno() {
        return state().get(JAVA_INT, ERRNO);
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return Foreign.Memory.allocate(bytes);
    }

    @Override
    public long read(int fd, NativeMemory buffer, long count) {
        MemorySegment segment = Memory.of(buffer);
        try {
            // Sliced, so that a count past the buffer fails here: a pointer argument carries no length.
            return read.call(fd, segment.asSlice(0, count).address(), count);
        } finally {
            Reference.reachabilityFence(segment); // an automatic arena's memory must outlive the call
        }
    }

    @Override
    public long write(int fd, NativeMemory buffer, long offset, long count) {
        MemorySegment segment = Memory.of(buffer);
        try {
            return write.call(fd, segment.asSlice(offset, count).address(), count);
        } finally {
            Reference.reachabilityFence(segment);
        }
    }

    @Override
    public int pidfdOpen(int pid) {
        return (int) syscall.call(SYS_PIDFD_OPEN, pid, 0);
    }

    /**
     * {@code kqueue} and {@code kevent} (macOS), bound on their first call: Linux's C library has
     * neither, and {@code kevent}'s six arguments need a call shape of their own.
     */
    private static final class Kqueue {
        static final MemorySegment KQUEUE = symbol("kqueue");
        static final MemorySegment KEVENT = symbol("kevent");
        static final MethodHandle SIX_WORDS = LINKER.downcallHandle(
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), CAPTURE);
    }

    @Override
    public int kqueue() {
        MemorySegment function;
        try {
            function = Kqueue.KQUEUE;
        } catch (LinkageError e) {
            throw new UnsupportedOperationException("kqueue() cannot be bound here: " + e, e);
        }
        try {
            return (int) (long) fixed.invokeExact(function, state(), 0L, 0L, 0L); // it takes none: the three are ignored
        } catch (Throwable t) {
            throw failed("kqueue", t);
        }
    }

    @Override
    public int kevent(int kq, NativeMemory changes, int nchanges, NativeMemory events, int nevents) {
        MemorySegment function;
        MethodHandle shape;
        try {
            function = Kqueue.KEVENT;
            shape = Kqueue.SIX_WORDS;
        } catch (LinkageError e) {
            throw new UnsupportedOperationException("kevent() cannot be bound here: " + e, e);
        }
        MemorySegment changeList = changes == null ? MemorySegment.NULL : Memory.of(changes);
        MemorySegment eventList = events == null ? MemorySegment.NULL : Memory.of(events);
        try {
            return (int) (long) shape.invokeExact(function, state(), (long) kq, changeList.address(), (long) nchanges,
                    eventList.address(), (long) nevents, 0L);
        } catch (Throwable t) {
            throw failed("kevent", t);
        } finally {
            Reference.reachabilityFence(changeList);
            Reference.reachabilityFence(eventList);
        }
    }

    @Override
    public int poll(NativeMemory fds, int nfds, int timeoutMillis, boolean nfdsIsInt) {
        // nfds_t is an unsigned int on macOS and FreeBSD, an unsigned long on Linux: a 64-bit
        // argument serves both, the callee reading as much of it as its type says.
        // Invoked here rather than through call(), so that a thread blocked in it shows poll on top.
        MemorySegment segment = Memory.of(fds);
        long pollfds = segment.asSlice(0, (long) nfds * POLLFD_BYTES).address();
        try {
            return (int) (long) fixed.invokeExact(poll, state(), pollfds, (long) nfds, (long) timeoutMillis);
        } catch (Throwable t) {
            throw failed("poll", t);
        } finally {
            Reference.reachabilityFence(segment);
        }
    }
}
