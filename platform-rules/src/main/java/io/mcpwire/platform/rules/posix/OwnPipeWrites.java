package io.mcpwire.platform.rules.posix;

import java.util.OptionalInt;

/**
 * On Linux, a non-blocking way into the write end of a pipe that changes nothing shared: the
 * pipe is opened again through {@code /proc/self/fd/N}, which gives an open file description of
 * the stream's own, with {@code O_NONBLOCK} set on it alone. Setting {@code O_NONBLOCK} on the
 * descriptor itself would change the description it shares with the parent and any child, and
 * stays set if the process dies.
 *
 * <p>A write through it either takes what fits or fails with {@code EAGAIN}, so a write needs no
 * {@code poll} before it while the client keeps up, and can be as large as the pipe's room
 * instead of {@code PIPE_BUF}.
 */
final class OwnPipeWrites {
    /** Linux's {@code O_NONBLOCK}; the description is opened only on Linux. */
    static final int LINUX_O_NONBLOCK = 04000;

    private OwnPipeWrites() {
    }

    /**
     * A descriptor above fd 2, close-on-exec, on an open file description of its own for the
     * write end of the pipe that {@code fd} writes; empty when {@code fd} is not the write end of
     * a pipe, when this is not Linux, or when the open fails (no {@code /proc}, no reader left),
     * so that the caller writes {@code fd} after {@code poll} instead.
     */
    static OptionalInt open(PosixLib posix, int fd) {
        if (posix.constants() != PosixConstants.LINUX) {
            return OptionalInt.empty();
        }
        CLibrary libc = posix.libc();
        String path = "/proc/self/fd/" + fd;
        String pipe = libc.readlink(path);
        int flags = libc.fcntl(fd, PosixConstants.F_GETFL);
        if (pipe == null || !pipe.startsWith("pipe:") || flags < 0 || (flags & PosixConstants.O_ACCMODE) != PosixConstants.O_WRONLY) {
            return OptionalInt.empty();
        }
        int own = libc.open(path, PosixConstants.O_WRONLY | LINUX_O_NONBLOCK | posix.constants().oCloexec());
        if (own >= 0 && own <= 2) { // fd 0, 1 or 2 was closed: move out of the standard range
            int moved = libc.fcntl(own, posix.constants().fDupfdCloexec(), 3);
            libc.close(own);
            own = moved;
        }
        if (own < 0) {
            return OptionalInt.empty();
        }
        if (!pipe.equals(libc.readlink("/proc/self/fd/" + own))) { // not the same pipe after all
            libc.close(own);
            return OptionalInt.empty();
        }
        return OptionalInt.of(own);
    }
}
