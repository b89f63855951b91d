package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.rules.NativeMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The C library calls a POSIX provider makes, as one binding (JNA, the JDK's foreign function
 * API) makes them. Each returns what the C function returns; {@link #errno()} is the calling
 * thread's {@code errno} right after its last call through this binding. The variadic ones
 * ({@code fcntl} with an argument, {@code open} with a mode) are passed as variadic arguments,
 * which Apple's arm64 convention puts on the stack.
 */
public interface CLibrary {

    /** {@code fcntl(fd, cmd)}. */
    int fcntl(int fd, int cmd);

    /** {@code fcntl(fd, cmd, arg)}, {@code arg} variadic. */
    int fcntl(int fd, int cmd, int arg);

    /** {@code fcntl(fd, cmd, buffer)} for a command that fills a path buffer (macOS's {@code F_GETPATH}); null on failure. */
    String fcntlPath(int fd, int cmd);

    /** {@code open(path, flags)}. */
    int open(String path, int flags);

    /** {@code open(path, flags, mode)}, {@code mode} variadic. */
    int open(String path, int flags, int mode);

    /** {@code dup2(source, target)}. */
    int dup2(int source, int target);

    /** {@code close(fd)}. */
    int close(int fd);

    /**
     * {@code readlink(path)}: the target of the symbolic link {@code path}, or null when it cannot
     * be read. By default through the JDK ({@link Files#readSymbolicLink}); a binding whose own
     * call is cheaper makes it.
     */
    default String readlink(String path) {
        try {
            return Files.readSymbolicLink(Path.of(path)).toString();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code isatty(fd)}. */
    int isatty(int fd);

    /** {@code pipe(fds)}: the read end in {@code fds[0]}, the write end in {@code fds[1]}. */
    int pipe(int[] fds);

    /** {@code strerror(errno)}. */
    String strerror(int errno);

    /** The calling thread's {@code errno} after its last call through this binding. */
    int errno();

    /** Native memory of {@code bytes} bytes, zeroed, freed when no longer reachable. */
    NativeMemory allocate(long bytes);

    /** {@code read(fd, buffer, count)}. */
    long read(int fd, NativeMemory buffer, long count);

    /** {@code write(fd, buffer + offset, count)}. */
    long write(int fd, NativeMemory buffer, long offset, long count);

    /**
     * {@code syscall(SYS_pidfd_open, pid, 0)} on Linux 5.3 and newer: a close-on-exec descriptor
     * that polls readable once process {@code pid} has exited. Linux alone has the call; {@code
     * syscall} is variadic, but Linux's x86-64 and arm64 conventions pass these integers in the
     * same registers either way.
     */
    int pidfdOpen(int pid);

    /**
     * {@code kqueue()} on macOS: a new kernel event queue, not close-on-exec. A binding for a
     * system without the call leaves this default, which throws.
     *
     * @throws UnsupportedOperationException when this binding does not make the call
     */
    default int kqueue() {
        throw new UnsupportedOperationException("kqueue() is not bound on this system");
    }

    /**
     * {@code kevent(kq, changes, nchanges, events, nevents, NULL)} on macOS: applies
     * {@code nchanges} {@code struct kevent}s from {@code changes}, then, when {@code nevents} is
     * above zero, waits with no timeout for that many events into {@code events}. Either memory
     * may be null when its count is zero.
     *
     * @throws UnsupportedOperationException when this binding does not make the call
     */
    default int kevent(int kq, NativeMemory changes, int nchanges, NativeMemory events, int nevents) {
        throw new UnsupportedOperationException("kevent() is not bound on this system");
    }

    /**
     * {@code poll(fds, nfds, timeout)}, with {@code nfds_t} as wide as {@code nfdsIsInt} says
     * (an {@code unsigned int} on macOS and FreeBSD, an {@code unsigned long} on Linux).
     */
    int poll(NativeMemory fds, int nfds, int timeoutMillis, boolean nfdsIsInt);
}
