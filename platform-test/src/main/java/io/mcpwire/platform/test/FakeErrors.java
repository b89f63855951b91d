package io.mcpwire.platform.test;

/** The error numbers the fake reports: POSIX (Linux values; the C runtime's agree), then Win32. */
final class FakeErrors {
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int EBADF = 9;
    static final int EMFILE = 24;
    static final int EPIPE = 32;
    static final int ENOENT = 2;

    static final int ERROR_INVALID_HANDLE = 6;
    static final int ERROR_BROKEN_PIPE = 109;
    static final int ERROR_NO_DATA = 232;
    static final int ERROR_OPERATION_ABORTED = 995;
    static final int ERROR_NOT_FOUND = 1168;

    private FakeErrors() {
    }
}
