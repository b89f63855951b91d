package io.mcpwire.platform.posix.jna;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The calls on the wire's hot path, direct-mapped for speed. Buffers are native memory: JNA
 * copies a whole Java array on every call, whatever the length. {@code size_t} and {@code ssize_t}
 * are 64-bit on the LP64 systems this provider runs on; {@code nfds_t} is an {@code unsigned long}
 * on Linux but an {@code unsigned int} on macOS and FreeBSD, so {@code poll} is bound both ways.
 */
public final class PosixIo {
    static {
        Native.register(PosixIo.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private PosixIo() {
    }

    /** {@code ssize_t read(int fd, void *buf, size_t count)}. */
    public static native long read(int fd, Pointer buf, long count);

    /** {@code ssize_t write(int fd, const void *buf, size_t count)}. */
    public static native long write(int fd, Pointer buf, long count);

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)} where {@code nfds_t} is {@code unsigned long}. */
    public static native int poll(Pointer fds, long nfds, int timeoutMillis);

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)} where {@code nfds_t} is {@code unsigned int}. */
    public static native int poll(Pointer fds, int nfds, int timeoutMillis);
}
