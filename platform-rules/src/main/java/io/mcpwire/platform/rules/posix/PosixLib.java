package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.rules.NativeMemory;

/**
 * A loaded C library binding with this system's constants, and {@code errno} turned into
 * exceptions that name the call, the descriptor and the error.
 *
 * @param libc      the binding
 * @param constants this system's constants
 */
public record PosixLib(CLibrary libc, PosixConstants constants) {

    /** Returns {@code result}, or throws the errno behind a negative one. */
    public int check(int result, String operation, int fd) throws DescriptorException {
        if (result < 0) {
            throw error(operation, fd, libc.errno());
        }
        return result;
    }

    /** The exception for {@code errno} after {@code operation} on {@code fd}. */
    public DescriptorException error(String operation, int fd, int errno) {
        String text;
        try {
            text = libc.strerror(errno);
        } catch (RuntimeException e) {
            text = "unknown error";
        }
        return new DescriptorException(operation, fd, errno, constants.errnoName(errno) + " (" + text + ")");
    }

    /**
     * A pipe whose ends are moved above the standard range and made close-on-exec
     * ({@code F_DUPFD_CLOEXEC, 3}), so that a closed fd 0, 1 or 2 is never taken by one of them.
     *
     * @return the read end, then the write end
     * @throws DescriptorException on failure, naming {@code operation} and {@code fd}; nothing is left open
     */
    public int[] pipeAboveStandard(String operation, int fd) throws DescriptorException {
        int[] ends = new int[2];
        check(libc.pipe(ends), operation, fd);
        int[] moved = {-1, -1};
        try {
            for (int i = 0; i < 2; i++) {
                moved[i] = check(libc.fcntl(ends[i], constants.fDupfdCloexec(), 3),
                        "fcntl(" + ends[i] + ", F_DUPFD_CLOEXEC, 3)", ends[i]);
            }
        } catch (DescriptorException e) {
            for (int m : moved) {
                if (m >= 0) {
                    libc.close(m);
                }
            }
            throw e;
        } finally {
            libc.close(ends[0]);
            libc.close(ends[1]);
        }
        return moved;
    }

    /** {@code poll(fds, n, -1)}, with {@code nfds_t} as wide as this system makes it. */
    public int poll(NativeMemory fds, int n) {
        return libc.poll(fds, n, -1, constants.nfdsIsInt());
    }

    /** The constants for this system, or an {@link UnsupportedOperationException} saying it is not POSIX. */
    public static PosixConstants constantsHere() {
        PosixConstants constants = PosixConstants.forOs(System.getProperty("os.name", ""));
        if (constants == null) {
            throw new UnsupportedOperationException("not Linux, macOS or FreeBSD (os.name=" + System.getProperty("os.name") + ")");
        }
        return constants;
    }
}
