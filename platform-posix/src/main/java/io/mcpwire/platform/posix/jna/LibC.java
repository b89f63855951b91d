package io.mcpwire.platform.posix.jna;

import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The C library calls of the claim and of the wire's hot path, direct-mapped: JNA binds each
 * native method once, when the class initializes, with no interface proxy to generate and no
 * lookup on a method's first call. Buffers are native memory: JNA copies a whole Java array on
 * every call, whatever the length. {@code size_t} and {@code ssize_t} are 64-bit on the LP64
 * systems this provider runs on; {@code nfds_t} is an {@code unsigned long} on Linux but an
 * {@code unsigned int} on macOS and FreeBSD, so {@code poll} is bound both ways.
 *
 * <p>A variadic argument ({@code fcntl}'s third, {@code open}'s mode) cannot be direct-mapped:
 * Apple's arm64 calling convention passes it on the stack. Those calls go through a JNA
 * {@link Function} that says how many arguments are fixed, as an interface's Java varargs would.
 */
public final class LibC {
    /**
     * Where JNA's call flags carry the count of fixed arguments of a variadic call (its
     * {@code Function.USE_VARARGS_SHIFT}, private; the native dispatcher reads it there).
     */
    private static final int FIXED_ARGUMENTS_SHIFT = 7;
    private static final Function FCNTL_VARIADIC;
    private static final Function OPEN_VARIADIC;

    static {
        NativeLibrary c = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
        Native.register(LibC.class, c);
        FCNTL_VARIADIC = c.getFunction("fcntl", Function.C_CONVENTION | (2 << FIXED_ARGUMENTS_SHIFT));
        OPEN_VARIADIC = c.getFunction("open", Function.C_CONVENTION | (2 << FIXED_ARGUMENTS_SHIFT));
    }

    private LibC() {
    }

    /** {@code int fcntl(int fd, int cmd)}: no variadic argument. */
    public static native int fcntl(int fd, int cmd);

    /** {@code int fcntl(int fd, int cmd, int arg)}: the argument is variadic. */
    public static int fcntl(int fd, int cmd, int arg) {
        return FCNTL_VARIADIC.invokeInt(new Object[] {fd, cmd, arg});
    }

    /** {@code int fcntl(int fd, int cmd, void *arg)}: the argument is variadic. */
    public static int fcntl(int fd, int cmd, Pointer arg) {
        return FCNTL_VARIADIC.invokeInt(new Object[] {fd, cmd, arg});
    }

    /** {@code int open(const char *path, int flags)}: no mode, so no variadic argument. */
    public static native int open(String path, int flags);

    /** {@code int open(const char *path, int flags, mode_t mode)}: the mode is variadic. */
    public static int open(String path, int flags, int mode) {
        return OPEN_VARIADIC.invokeInt(new Object[] {path, flags, mode});
    }

    /** {@code int dup2(int oldfd, int newfd)}. */
    public static native int dup2(int source, int target);

    /** {@code int close(int fd)}. */
    public static native int close(int fd);

    /** {@code int isatty(int fd)}. */
    public static native int isatty(int fd);

    /** {@code int pipe(int fds[2])}. */
    public static native int pipe(int[] fds);

    /** {@code char *strerror(int errnum)}. */
    public static native String strerror(int errnum);

    /** {@code ssize_t read(int fd, void *buf, size_t count)}. */
    public static native long read(int fd, Pointer buf, long count);

    /** {@code ssize_t write(int fd, const void *buf, size_t count)}. */
    public static native long write(int fd, Pointer buf, long count);

    /**
     * {@code long syscall(long number, ...)} with two arguments: variadic, but on Linux, the one
     * system it is called on here, x86-64 and arm64 pass them in the same registers either way.
     */
    public static native long syscall(long number, long a, long b);

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)} where {@code nfds_t} is {@code unsigned long}. */
    public static native int poll(Pointer fds, long nfds, int timeoutMillis);

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)} where {@code nfds_t} is {@code unsigned int}. */
    public static native int poll(Pointer fds, int nfds, int timeoutMillis);

    /** {@code kqueue} and {@code kevent}, looked up on their first call: macOS has them, Linux's C library does not. */
    private static final class Kqueue {
        private static final NativeLibrary C = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
        static final Function KQUEUE = C.getFunction("kqueue");
        static final Function KEVENT = C.getFunction("kevent");
    }

    /** {@code int kqueue(void)} (macOS); bound on its first call. */
    public static int kqueue() {
        return Kqueue.KQUEUE.invokeInt(new Object[0]);
    }

    /**
     * {@code int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent
     * *eventlist, int nevents, const struct timespec *timeout)} (macOS) with no timeout; bound on
     * its first call.
     */
    public static int kevent(int kq, Pointer changes, int nchanges, Pointer events, int nevents) {
        return Kqueue.KEVENT.invokeInt(new Object[] {kq, changes, nchanges, events, nevents, null});
    }
}
