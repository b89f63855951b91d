package io.mcpwire.platform.posix.jna;

import com.sun.jna.Library;

/**
 * The C library calls of the claim, interface-mapped. {@code fcntl} is declared with Java
 * varargs so that JNA passes its third argument as a variadic one, which Apple's arm64 calling
 * convention puts on the stack.
 */
public interface LibC extends Library {
    /** {@code int fcntl(int fd, int cmd, ...)}. */
    int fcntl(int fd, int cmd, Object... args);

    /** {@code int open(const char *path, int flags)}: no mode, so no variadic argument. */
    int open(String path, int flags);

    /** {@code int open(const char *path, int flags, mode_t mode)}: the mode is variadic. */
    int open(String path, int flags, Object... mode);

    /** {@code int dup2(int oldfd, int newfd)}. */
    int dup2(int source, int target);

    /** {@code int close(int fd)}. */
    int close(int fd);

    /** {@code int isatty(int fd)}. */
    int isatty(int fd);

    /** {@code int pipe(int fds[2])}. */
    int pipe(int[] fds);

    /** {@code char *strerror(int errnum)}. */
    String strerror(int errnum);
}
