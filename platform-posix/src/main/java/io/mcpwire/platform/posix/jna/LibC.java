package io.mcpwire.platform.posix.jna;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The C library calls of the claim and of the wire's hot path, each a JNA {@link Function} looked
 * up once, when the class initializes, and called with its arguments boxed. Not direct-mapped
 * ({@code Native.register}): binding a native method makes JNA lay out its libffi type
 * descriptions, {@code Structure}s read by reflection (annotation proxies and generated accessors
 * spun at run time), which cost a JDK 17 start more than every call of a session saves. Buffers are
 * native memory: JNA copies a whole Java array on every call, whatever the length.
 * {@code size_t} and {@code ssize_t} are 64-bit on the LP64 systems this provider runs on, so
 * they are passed as {@code long}; {@code nfds_t} is an {@code unsigned long} on Linux but an
 * {@code unsigned int} on macOS and FreeBSD, so {@code poll} is offered both ways.
 *
 * <p>A variadic argument ({@code fcntl}'s third, {@code open}'s mode) is passed through a
 * {@code Function} that says how many arguments are fixed, as an interface's Java varargs would:
 * Apple's arm64 calling convention passes it on the stack.
 */
public final class LibC {
    /**
     * Where JNA's call flags carry the count of fixed arguments of a variadic call (its
     * {@code Function.USE_VARARGS_SHIFT}, private; the native dispatcher reads it there).
     */
    private static final int FIXED_ARGUMENTS_SHIFT = 7;
    private static final NativeLibrary C = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
    private static final Function FCNTL = C.getFunction("fcntl");
    private static final Function FCNTL_VARIADIC = C.getFunction("fcntl", Function.C_CONVENTION | (2 << FIXED_ARGUMENTS_SHIFT));
    private static final Function OPEN = C.getFunction("open");
    private static final Function OPEN_VARIADIC = C.getFunction("open", Function.C_CONVENTION | (2 << FIXED_ARGUMENTS_SHIFT));
    private static final Function DUP2 = C.getFunction("dup2");
    private static final Function CLOSE = C.getFunction("close");
    private static final Function ISATTY = C.getFunction("isatty");
    private static final Function PIPE = C.getFunction("pipe");
    private static final Function STRERROR = C.getFunction("strerror");
    private static final Function READ = C.getFunction("read");
    private static final Function WRITE = C.getFunction("write");
    private static final Function POLL = C.getFunction("poll");
    private static final Function SYSCALL = C.getFunction("syscall");

    private LibC() {
    }

    /** {@code int fcntl(int fd, int cmd)}: no variadic argument. */
    public static int fcntl(int fd, int cmd) {
        return FCNTL.invokeInt(new Object[] {fd, cmd});
    }

    /** {@code int fcntl(int fd, int cmd, int arg)}: the argument is variadic. */
    public static int fcntl(int fd, int cmd, int arg) {
        return FCNTL_VARIADIC.invokeInt(new Object[] {fd, cmd, arg});
    }

    /** {@code int fcntl(int fd, int cmd, void *arg)}: the argument is variadic. */
    public static int fcntl(int fd, int cmd, Pointer arg) {
        return FCNTL_VARIADIC.invokeInt(new Object[] {fd, cmd, arg});
    }

    /** {@code int open(const char *path, int flags)}: no mode, so no variadic argument. */
    public static int open(String path, int flags) {
        return OPEN.invokeInt(new Object[] {path, flags});
    }

    /** {@code int open(const char *path, int flags, mode_t mode)}: the mode is variadic. */
    public static int open(String path, int flags, int mode) {
        return OPEN_VARIADIC.invokeInt(new Object[] {path, flags, mode});
    }

    /** {@code int dup2(int oldfd, int newfd)}. */
    public static int dup2(int source, int target) {
        return DUP2.invokeInt(new Object[] {source, target});
    }

    /** {@code int close(int fd)}. */
    public static int close(int fd) {
        return CLOSE.invokeInt(new Object[] {fd});
    }

    /** {@code int isatty(int fd)}. */
    public static int isatty(int fd) {
        return ISATTY.invokeInt(new Object[] {fd});
    }

    /** {@code int pipe(int fds[2])}. */
    public static int pipe(int[] fds) {
        return PIPE.invokeInt(new Object[] {fds});
    }

    /** {@code char *strerror(int errnum)}. */
    public static String strerror(int errnum) {
        return STRERROR.invokeString(new Object[] {errnum}, false);
    }

    /** {@code ssize_t read(int fd, void *buf, size_t count)}. */
    public static long read(int fd, Pointer buf, long count) {
        return READ.invokeLong(new Object[] {fd, buf, count});
    }

    /** {@code ssize_t write(int fd, const void *buf, size_t count)}. */
    public static long write(int fd, Pointer buf, long count) {
        return WRITE.invokeLong(new Object[] {fd, buf, count});
    }

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)} where {@code nfds_t} is {@code unsigned long}. */
    public static int poll(Pointer fds, long nfds, int timeoutMillis) {
        return POLL.invokeInt(new Object[] {fds, nfds, timeoutMillis});
    }

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)} where {@code nfds_t} is {@code unsigned int}. */
    public static int poll(Pointer fds, int nfds, int timeoutMillis) {
        return POLL.invokeInt(new Object[] {fds, nfds, timeoutMillis});
    }

    /**
     * {@code long syscall(long number, ...)} with two arguments: variadic, but on Linux, the one
     * system it is called on here, x86-64 and arm64 pass them in the same registers either way.
     */
    public static long syscall(long number, long a, long b) {
        return SYSCALL.invokeLong(new Object[] {number, a, b});
    }

    /** {@code kqueue} and {@code kevent}, looked up on their first call: macOS has them, Linux's C library does not. */
    private static final class Kqueue {
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
