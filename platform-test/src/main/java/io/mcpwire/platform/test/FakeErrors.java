package io.mcpwire.platform.test;

/** The POSIX error numbers the fake reports (Linux values). */
final class FakeErrors {
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int EBADF = 9;
    static final int EMFILE = 24;
    static final int EPIPE = 32;

    private FakeErrors() {
    }
}
