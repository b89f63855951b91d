package io.mcpwire.platform.posix;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import io.mcpwire.platform.posix.jna.LibC;
import io.mcpwire.platform.posix.jna.WireCalls;
import io.mcpwire.platform.rules.posix.CLibrary;
import io.mcpwire.platform.rules.NativeMemory;

/**
 * The C library through JNA: every call a JNA {@code Function} ({@link LibC}), but the wire's
 * {@code read}, {@code write} and {@code poll} once a session is busy, which move to direct-mapped
 * methods ({@link WireCalls}); native memory as JNA's {@link Memory}. JNA keeps each thread's {@code errno} after every call.
 */
final class JnaCLibrary implements CLibrary {
    private static final int MAXPATHLEN = 1024;
    /** {@code SYS_pidfd_open}: one number on every Linux architecture since 5.3. */
    private static final long SYS_PIDFD_OPEN = 434;

    private JnaCLibrary() {
    }

    /**
     * Loads JNA (its native library from the per-user cache where it can, see
     * {@link JnaDispatchCache}; no {@code ldconfig} run, see {@link LinuxLibraryPath}) and binds
     * the C library; throws what the load threw.
     */
    static JnaCLibrary load() throws ClassNotFoundException {
        LinuxLibraryPath.setForJna();
        JnaDispatchCache.initializeJna();
        // Bind the C calls now, so that a failure shows here and not on the first call.
        Class.forName(LibC.class.getName(), true, LibC.class.getClassLoader());
        return new JnaCLibrary();
    }

    /** JNA's native memory. */
    private static final class JnaMemory implements NativeMemory {
        final Memory memory;

        JnaMemory(long bytes) {
            memory = new Memory(bytes);
            memory.clear();
        }

        @Override
        public void putInt(long offset, int value) {
            memory.setInt(offset, value);
        }

        @Override
        public short getShort(long offset) {
            return memory.getShort(offset);
        }

        @Override
        public void write(long offset, byte[] source, int from, int n) {
            memory.write(offset, source, from, n);
        }

        @Override
        public void read(long offset, byte[] target, int to, int n) {
            memory.read(offset, target, to, n);
        }
    }

    private static Memory of(NativeMemory m) {
        return ((JnaMemory) m).memory;
    }

    @Override
    public int fcntl(int fd, int cmd) {
        return LibC.fcntl(fd, cmd);
    }

    @Override
    public int fcntl(int fd, int cmd, int arg) {
        return LibC.fcntl(fd, cmd, arg);
    }

    @Override
    public String fcntlPath(int fd, int cmd) {
        Memory buffer = new Memory(MAXPATHLEN);
        buffer.clear();
        return LibC.fcntl(fd, cmd, buffer) < 0 ? null : buffer.getString(0);
    }

    @Override
    public int open(String path, int flags) {
        return LibC.open(path, flags);
    }

    @Override
    public int open(String path, int flags, int mode) {
        return LibC.open(path, flags, mode);
    }

    @Override
    public int dup2(int source, int target) {
        return LibC.dup2(source, target);
    }

    @Override
    public int close(int fd) {
        return LibC.close(fd);
    }

    @Override
    public int isatty(int fd) {
        return LibC.isatty(fd);
    }

    @Override
    public int pipe(int[] fds) {
        return LibC.pipe(fds);
    }

    @Override
    public String strerror(int errno) {
        return LibC.strerror(errno);
    }

    @Override
    public int errno() {
        return Native.getLastError();
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return new JnaMemory(bytes);
    }

    @Override
    public long read(int fd, NativeMemory buffer, long count) {
        return WireCalls.read(fd, of(buffer), count);
    }

    @Override
    public long write(int fd, NativeMemory buffer, long offset, long count) {
        return WireCalls.write(fd, of(buffer).share(offset), count);
    }

    @Override
    public int pidfdOpen(int pid) {
        return (int) LibC.syscall(SYS_PIDFD_OPEN, pid, 0);
    }

    @Override
    public int kqueue() {
        try {
            return LibC.kqueue();
        } catch (LinkageError e) {
            throw new UnsupportedOperationException("kqueue() cannot be bound here: " + e, e);
        }
    }

    @Override
    public int kevent(int kq, NativeMemory changes, int nchanges, NativeMemory events, int nevents) {
        try {
            return LibC.kevent(kq, changes == null ? null : of(changes), nchanges, events == null ? null : of(events), nevents);
        } catch (LinkageError e) {
            throw new UnsupportedOperationException("kevent() cannot be bound here: " + e, e);
        }
    }

    @Override
    public int poll(NativeMemory fds, int nfds, int timeoutMillis, boolean nfdsIsInt) {
        return WireCalls.poll(of(fds), nfds, timeoutMillis, nfdsIsInt);
    }
}
