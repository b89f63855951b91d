package io.mcpwire.platform.test;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.rules.HeapMemory;
import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.windows.Win32;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import java.nio.channels.AsynchronousCloseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The C runtime and Win32 calls of a fake process that models Windows ({@link FakeCrt}), as the
 * {@link Win32} binding that the shared Windows rules run over. Each call that can fail is logged,
 * open to a scripted failure and followed by the wire check; lookups that cannot fail on a live
 * handle ({@code _get_osfhandle}, {@code GetStdHandle}, {@code CompareObjectHandles},
 * {@code GetConsoleMode}, {@code CloseHandle}) are not.
 *
 * <p>Two more rules of the real system are kept. A C runtime call on a descriptor that is not open
 * ends the process (fast fail, 0xC0000409) unless the invalid-parameter handler is suppressed, as
 * the real bindings do for each call. A synchronous pipe serialises I/O on its file object: a query
 * ({@code GetFileType}, also inside {@code _open_osfhandle}, or {@code GetFileInformationByHandle})
 * on a pipe that another thread is blocked reading would hang until the read ends, so the model
 * records it as a violation instead.
 *
 * <p>Threads: everything is guarded by the kernel's lock; the calling thread's {@code errno} and
 * {@code GetLastError()} are its own.
 */
final class FakeWin32 implements Win32 {
    /** Thread handles ({@link #openCurrentThread()}) live apart from the file handles. */
    private static final long FIRST_THREAD_HANDLE = 0x7000_0000L;

    /** What the release C runtime does on an invalid parameter with no handler: the process ends. */
    static final class FastFail extends Error {
        private static final long serialVersionUID = 1L;

        FastFail(String call) {
            super(call + ": the C runtime ends the process here (0xC0000409), since the "
                    + "invalid-parameter handler is not suppressed");
        }
    }

    private final FakeKernel kernel;
    private final boolean suppressesInvalidParameters;
    private final ThreadLocal<int[]> errors = ThreadLocal.withInitial(() -> new int[2]); // errno, GetLastError
    private final Map<Long, Thread> threads = new HashMap<>();
    private final Set<Thread> inBlockingCall = new HashSet<>();
    private long nextThreadHandle = FIRST_THREAD_HANDLE;

    /**
     * The binding over {@code kernel}; {@code suppressesInvalidParameters} as the real bindings
     * do, or not, to see the fast fail.
     */
    FakeWin32(FakeKernel kernel, boolean suppressesInvalidParameters) {
        this.kernel = kernel;
        this.suppressesInvalidParameters = suppressesInvalidParameters;
    }

    private FakeCrt crt() {
        return kernel.crt();
    }

    /** How a claim script names {@code handle} now, before the call that uses it. */
    private String named(long handle) {
        return kernel.locked(() -> crt().recorder.handle(crt(), handle));
    }

    /** Writes a logged call to the claim script being recorded, if any; returns {@code result}. */
    private <T> T recorded(String call, String args, T result, long returnedHandle) {
        return recorded(call, args, result, returnedHandle, kernel.lastCallFaulted());
    }

    /** Writes a call to the claim script, failed by a scripted fault or not; returns {@code result}. */
    private <T> T recorded(String call, String args, T result, long returnedHandle, boolean faulted) {
        kernel.locked(() -> {
            crt().recorder.step(call, args, faulted, returnedHandle);
            return null;
        });
        return result;
    }

    // ------------------------------------------------------------------ the C runtime

    @Override
    public long getOsfHandle(int fd) {
        return kernel.locked(() -> {
            long h = crt().osHandle(fd);
            if (h == -1) {
                invalidParameter("_get_osfhandle(" + fd + ")");
                errors.get()[0] = FakeErrors.EBADF;
            }
            return h;
        });
    }

    @Override
    public int openOsfHandle(long handle, int flags) {
        String h = named(handle);
        return recorded("_open_osfhandle", h, crtCall(Op.OPEN_OSFHANDLE, -1, -1, null, c -> {
            FakeFile f = crt().fileOf(handle);
            if (f == null) {
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (GetFileType failed: not a handle)");
            }
            query(f, "_open_osfhandle (its GetFileType)");
            int fd = crt().allocate(handle);
            if (fd < 0) {
                throw FakeKernel.error(c, FakeErrors.EMFILE, "EMFILE (Too many open files)");
            }
            return fd;
        }), 0);
    }

    /**
     * Gives the target an inheritable duplicate of the source's handle, as the C runtime's
     * {@code _dup2} does: closing the target's handle first (up to 10.0.20348) or only once the
     * duplicate was made (10.0.22000 on), as the variant says.
     */
    @Override
    public int dup2(int source, int target) {
        return recorded("_dup2", source + " " + target, crtCall(Op.DUP2, target, source, null, c -> {
            if (!crt().isOpen(source) || !FakeCrt.inRange(target)) {
                invalidParameter("_dup2(" + source + ", " + target + ")");
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
            }
            FakeFile file = crt().file(source);
            if (file == null) {
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (fd " + source + " has no OS handle)");
            }
            if (source != target) {
                if (crt().variant().dup2Order() == WindowsVariant.Dup2Order.CLOSE_FIRST) {
                    crt().close(target);
                    crt().put(target, crt().newHandle(file, true));
                } else {
                    long copy = crt().newHandle(file, true);
                    crt().close(target);
                    crt().put(target, copy);
                }
            }
            return 0;
        }), 0);
    }

    /** {@code _dup}: an inheritable duplicate of fd's handle on the lowest free descriptor; no {@code GetFileType}. */
    @Override
    public int dup(int fd) {
        return recorded("_dup", String.valueOf(fd), crtCall(Op.DUP, fd, -1, null, c -> {
            if (!crt().isOpen(fd)) {
                invalidParameter("_dup(" + fd + ")");
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
            }
            FakeFile file = crt().file(fd);
            if (file == null) {
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (fd " + fd + " has no OS handle)");
            }
            return allocate(c, file, true);
        }), 0);
    }

    @Override
    public int open(String path, int flags) {
        Access access = (flags & WindowsPlatform.O_WRONLY) != 0 ? Access.WRITE : Access.READ;
        return recorded("_open_nul", (flags & WindowsPlatform.O_WRONLY) != 0 ? "w" : "r", crtCall(Op.OPEN_NULL, -1, -1, access, c -> {
            if (!path.equals("NUL")) {
                throw FakeKernel.error(c, FakeErrors.ENOENT, "ENOENT (the fake opens only NUL)");
            }
            FakeFile nul = FakeFile.nullDevice(kernel.nextId(), "null device (" + access.name().toLowerCase() + ")");
            return allocate(c, nul, (flags & WindowsPlatform.O_NOINHERIT) == 0);
        }), 0);
    }

    @Override
    public int wopen(String path, int flags, int mode) {
        return recorded("_wopen", path, crtCall(Op.OPEN_APPEND, -1, -1, null, c -> {
            var sink = kernel.files.computeIfAbsent(path, k -> new java.io.ByteArrayOutputStream());
            FakeFile file = FakeFile.sink(kernel.nextId(), kernel.nextId(), "file " + path, FileIdentity.Kind.FILE, sink);
            return allocate(c, file, (flags & WindowsPlatform.O_NOINHERIT) == 0);
        }), 0);
    }

    private int allocate(Call c, FakeFile file, boolean inheritable) throws DescriptorException {
        long h = crt().newHandle(file, inheritable);
        int fd = crt().allocate(h);
        if (fd < 0) {
            crt().closeHandle(h);
            throw FakeKernel.error(c, FakeErrors.EMFILE, "EMFILE (Too many open files)");
        }
        return fd;
    }

    @Override
    public int close(int fd) {
        return recorded("_close", String.valueOf(fd), crtCall(Op.CLOSE, fd, -1, null, c -> {
            if (!crt().isOpen(fd)) {
                invalidParameter("_close(" + fd + ")");
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
            }
            crt().close(fd);
            return 0;
        }), 0);
    }

    @Override
    public int crtErrno() {
        return errors.get()[0];
    }

    @Override
    public int lastError() {
        return errors.get()[1];
    }

    // ------------------------------------------------------------------ Win32

    @Override
    public long duplicateHandle(long handle, boolean inheritable) {
        String h = named(handle);
        long result = win32(Op.DUPLICATE_HANDLE, handle, 0L, c -> crt().newHandle(live(c, handle), inheritable));
        return recorded("DuplicateHandle", h + (inheritable ? " 1" : " 0"), result, result);
    }

    @Override
    public boolean setInheritable(long handle, boolean inheritable) {
        String h = named(handle);
        return recorded("SetHandleInformation", h + (inheritable ? " 1" : " 0"), win32(Op.SET_HANDLE_INFORMATION, handle, false, c -> {
            live(c, handle);
            return crt().setInheritable(handle, inheritable);
        }), 0);
    }

    /**
     * {@code CancelIoEx(handle, NULL)}: cancels the read pending on the file {@code handle} names,
     * whichever thread and handle it was made through; false with {@code ERROR_NOT_FOUND} when none is.
     */
    @Override
    public boolean cancelIo(long handle) {
        String h = named(handle);
        return recorded("CancelIoEx", h, kernel.locked(() -> {
            FakeFile f = crt().fileOf(handle);
            Thread reader = f == null ? null : crt().pendingReads.get(f);
            if (reader == null) {
                errors.get()[1] = f == null ? FakeErrors.ERROR_INVALID_HANDLE : FakeErrors.ERROR_NOT_FOUND;
                return false;
            }
            crt().cancelled.add(reader);
            kernel.changed.signalAll();
            return true;
        }), 0, false);
    }

    /** Not a fault point: {@code CloseHandle} fails only on a handle that is not live. */
    @Override
    public boolean closeHandle(long handle) {
        String h = named(handle);
        String call = handle >= FIRST_THREAD_HANDLE ? "" : "CloseHandle"; // a thread's handle is no file's
        return recorded(call, h, kernel.locked(() -> {
            boolean closed = handle >= FIRST_THREAD_HANDLE ? threads.remove(handle) != null : crt().closeHandle(handle);
            if (!closed) {
                errors.get()[1] = FakeErrors.ERROR_INVALID_HANDLE;
            }
            kernel.changed.signalAll();
            return closed;
        }), 0, false);
    }

    @Override
    public long getStdHandle(int slot) {
        return kernel.locked(() -> crt().slot(FakeCrt.slotIndex(slot)));
    }

    @Override
    public boolean setStdHandle(int slot, long handle) {
        int fd = FakeCrt.slotIndex(slot);
        String h = named(handle);
        return recorded("SetStdHandle", FakeCrt.slotIndex(slot) + " " + h, crtOrWin32(Op.SET_STD_HANDLE, fd, false, c -> {
            crt().setSlot(fd, handle);
            return true;
        }), 0);
    }

    @Override
    public int getFileType(long handle) {
        return win32(Op.GET_FILE_TYPE, handle, 0, c -> {
            FakeFile f = live(c, handle);
            query(f, "GetFileType");
            return FakeCrt.fileType(f);
        });
    }

    @Override
    public boolean isConsole(long handle) {
        return kernel.locked(() -> {
            FakeFile f = crt().fileOf(handle);
            return f != null && f.kind == FileIdentity.Kind.TERMINAL;
        });
    }

    @Override
    public long[] fileId(long handle) {
        return win32(Op.FILE_ID, handle, null, c -> {
            FakeFile f = live(c, handle);
            query(f, "GetFileInformationByHandle");
            return new long[] {1, f.inode};
        });
    }

    @Override
    public Boolean compareObjectHandles(long a, long b) {
        return kernel.locked(() -> {
            FakeFile fa = crt().fileOf(a);
            return fa != null && fa == crt().fileOf(b);
        });
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return new HeapMemory(bytes);
    }

    /** Blocks while a pipe is empty and still written to; {@code CancelSynchronousIo} ends the wait. */
    @Override
    public int readFile(long handle, NativeMemory buffer, int count) {
        byte[] into = ((HeapMemory) buffer).bytes;
        return win32(Op.READ, handle, -1, c -> {
            FakeFile f = live(c, handle);
            if (!f.canRead()) {
                throw FakeKernel.error(c, 5, "ERROR_ACCESS_DENIED (" + f.label + " is not open for reading)");
            }
            Thread me = Thread.currentThread();
            crt().pendingReads.put(f, me);
            try {
                int n = blocking(c, () -> f.read(into, 0, count, crt().waitUnlessCancelled(kernel)));
                if (n < 0 && f.role == FakeFile.Role.PIPE_READ) {
                    throw FakeKernel.error(c, FakeErrors.ERROR_BROKEN_PIPE, "ERROR_BROKEN_PIPE");
                }
                return Math.max(n, 0); // 0: end of a file or the null device
            } finally {
                crt().pendingReads.remove(f, me);
            }
        });
    }

    @Override
    public int writeFile(long handle, NativeMemory buffer, int offset, int count) {
        byte[] from = ((HeapMemory) buffer).bytes;
        return win32(Op.WRITE, handle, -1, c -> {
            FakeFile f = live(c, handle);
            if (!f.canWrite()) {
                throw FakeKernel.error(c, 5, "ERROR_ACCESS_DENIED (" + f.label + " is not open for writing)");
            }
            int n = blocking(c, () -> f.write(from, offset, count, crt().waitUnlessCancelled(kernel)));
            if (n < 0) {
                throw FakeKernel.error(c, FakeErrors.ERROR_NO_DATA, "ERROR_NO_DATA (the pipe is being closed)");
            }
            return n;
        });
    }

    @Override
    public long openCurrentThread() {
        return kernel.locked(() -> {
            long h = nextThreadHandle++;
            threads.put(h, Thread.currentThread());
            return h;
        });
    }

    /** Cancels the thread's call only while it is in one, as the real call does. */
    @Override
    public boolean cancelSynchronousIo(long thread) {
        return kernel.locked(() -> {
            Thread t = threads.get(thread);
            if (t == null || !inBlockingCall.contains(t)) {
                errors.get()[1] = FakeErrors.ERROR_NOT_FOUND;
                return false;
            }
            crt().cancelled.add(t);
            kernel.changed.signalAll();
            return true;
        });
    }

    // ------------------------------------------------------------------ the rules

    /** A call that may wait; cancelled, it fails with {@code ERROR_OPERATION_ABORTED}. */
    private int blocking(Call c, IoStep step) throws DescriptorException {
        Thread me = Thread.currentThread();
        inBlockingCall.add(me);
        try {
            return step.run();
        } catch (AsynchronousCloseException e) {
            throw FakeKernel.error(c, FakeErrors.ERROR_OPERATION_ABORTED, "ERROR_OPERATION_ABORTED");
        } finally {
            inBlockingCall.remove(me);
            crt().cancelled.remove(me);
        }
    }

    @FunctionalInterface
    private interface IoStep {
        int run() throws AsynchronousCloseException;
    }

    /** A query on {@code f} while another thread reads it would hang on a real synchronous pipe. */
    private void query(FakeFile f, String what) {
        Thread reader = crt().pendingReads.get(f);
        if (reader != null && reader != Thread.currentThread() && f.pipe != null) {
            kernel.violation(what + " on " + f.label + " while thread " + reader.getName()
                    + " is blocked in ReadFile on it: Windows serialises synchronous I/O on a pipe's file "
                    + "object, so this call would hang until the read ends");
        }
    }

    private void invalidParameter(String call) {
        if (!suppressesInvalidParameters) {
            kernel.violation(call + " on a descriptor that is not open, with the invalid-parameter handler not suppressed");
            throw new FastFail(call);
        }
    }

    private FakeFile live(Call c, long handle) throws DescriptorException {
        FakeFile f = crt().fileOf(handle);
        if (f == null) {
            throw FakeKernel.error(c, FakeErrors.ERROR_INVALID_HANDLE, "ERROR_INVALID_HANDLE");
        }
        return f;
    }

    /** A C runtime call: a failure sets {@code errno} and returns -1. */
    private int crtCall(Op op, int fd, int source, Access access, FakeKernel.Action<Integer> action) {
        try {
            return kernel.call(op, fd, source, access, action);
        } catch (DescriptorException e) {
            errors.get()[0] = e.errorCode();
            return -1;
        }
    }

    /** A Win32 call on {@code handle}: a failure sets {@code GetLastError()} and returns {@code failed}. */
    private <T> T win32(Op op, long handle, T failed, FakeKernel.Action<T> action) {
        int owner = kernel.locked(() -> crt().ownerOf(handle));
        return crtOrWin32(op, owner, failed, action);
    }

    private <T> T crtOrWin32(Op op, int fd, T failed, FakeKernel.Action<T> action) {
        try {
            return kernel.call(op, fd, -1, null, action);
        } catch (DescriptorException e) {
            errors.get()[1] = e.errorCode();
            return failed;
        }
    }
}
