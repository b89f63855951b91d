package io.mcpwire.platform.posix;

import com.sun.jna.Native;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.posix.jna.LibC;
import io.mcpwire.platform.posix.jna.PosixIo;

/** The loaded C library with this system's constants, and errno turned into exceptions. */
final class Posix {
    final LibC libc;
    final PosixConstants constants;

    private Posix(LibC libc, PosixConstants constants) {
        this.libc = libc;
        this.constants = constants;
    }

    /** Loads the C library; throws what the load threw. */
    static Posix load(PosixConstants constants) {
        LibC libc = Native.load(com.sun.jna.Platform.C_LIBRARY_NAME, LibC.class);
        // Initialize the direct-mapped class now, so a failure shows here and not on the first read.
        try {
            Class.forName(PosixIo.class.getName(), true, PosixIo.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return new Posix(libc, constants);
    }

    /** {@code poll(fds, n, -1)}, with {@code nfds_t} as wide as this system makes it. */
    int poll(com.sun.jna.Pointer fds, int n) {
        return constants.nfdsIsInt() ? PosixIo.poll(fds, n, -1) : PosixIo.poll(fds, (long) n, -1);
    }

    /** The calling thread's errno after the last native call. */
    static int errno() {
        return Native.getLastError();
    }

    /** Returns {@code result}, or throws the errno behind a negative one. */
    int check(int result, String operation, int fd) throws DescriptorException {
        if (result < 0) {
            throw error(operation, fd, errno());
        }
        return result;
    }

    DescriptorException error(String operation, int fd, int errno) {
        String text;
        try {
            text = libc.strerror(errno);
        } catch (RuntimeException e) {
            text = "unknown error";
        }
        return new DescriptorException(operation, fd, errno, constants.errnoName(errno) + " (" + text + ")");
    }
}
