package io.mcpwire.platform.test;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.rules.windows.Win32;
import io.mcpwire.platform.rules.windows.WindowsPlatform;

/**
 * The Universal C Runtime's half of the fake's {@link Win32} binding ({@link FakeWin32} is the
 * whole): {@code _get_osfhandle}, {@code _open_osfhandle}, {@code _dup}, {@code _dup2} in the
 * variant's order, {@code _open("NUL")}, {@code _wopen} and {@code _close} over the model's
 * descriptors, and what both halves share: the calling thread's {@code errno} and
 * {@code GetLastError()}, the claim script being recorded, and two rules of the real system. A C
 * runtime call on a descriptor that is not open ends the process (fast fail, 0xC0000409) unless the
 * invalid-parameter handler is suppressed, as the real bindings do for each call. A synchronous
 * file object serialises its I/O: a query ({@code GetFileType}, also inside
 * {@code _open_osfhandle}, or {@code GetFileInformationByHandle}) on a pipe that another thread (or
 * child) is blocked reading or writing waits until that call ends, which may be never; and
 * {@code _dup}, {@code _dup2} and {@code _close} wait for the C runtime's lock of each descriptor
 * they name, which a native {@code _read}/{@code _write} holds while it blocks
 * ({@code lowio/dup.cpp}, {@code dup2.cpp}, {@code close.cpp}, {@code read.cpp}, {@code write.cpp}).
 * The claim's own thread never waits: its wait is recorded as a hang ({@link KernelThreads}).
 *
 * <p>Threads: everything is guarded by the kernel's lock.
 */
abstract class FakeUcrt implements Win32 {
    /** What the release C runtime does on an invalid parameter with no handler: the process ends. */
    static final class FastFail extends Error {
        private static final long serialVersionUID = 1L;

        FastFail(String call) {
            super(call + ": the C runtime ends the process here (0xC0000409), since the "
                    + "invalid-parameter handler is not suppressed");
        }
    }

    final FakeKernel kernel;
    private final boolean suppressesInvalidParameters;
    final ThreadLocal<int[]> errors = ThreadLocal.withInitial(() -> new int[2]); // errno, GetLastError

    FakeUcrt(FakeKernel kernel, boolean suppressesInvalidParameters) {
        this.kernel = kernel;
        this.suppressesInvalidParameters = suppressesInvalidParameters;
    }

    final FakeCrt crt() {
        return kernel.crt();
    }

    /** How a claim script names {@code handle} now, before the call that uses it. */
    final String named(long handle) {
        return kernel.locked(() -> crt().recorder.handle(crt(), handle));
    }

    /** Writes a logged call to the claim script being recorded, if any; returns {@code result}. */
    final <T> T recorded(String call, String args, T result, long returnedHandle) {
        return recorded(call, args, result, returnedHandle, kernel.lastCallFaulted());
    }

    /** Writes a call to the claim script, failed by a scripted fault or not; returns {@code result}. */
    final <T> T recorded(String call, String args, T result, long returnedHandle, boolean faulted) {
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
            FakeFile f = crt().handles.fileOf(handle);
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
            crtLock("_dup2(" + source + ", " + target + ")", Math.min(source, target));
            crtLock("_dup2(" + source + ", " + target + ")", Math.max(source, target));
            requireOpen(c, crt().isOpen(source) && FakeCrt.inRange(target), "_dup2(" + source + ", " + target + ")");
            FakeFile file = fileWithHandle(c, source);
            if (source != target) {
                if (crt().variant().dup2Order() == WindowsVariant.Dup2Order.CLOSE_FIRST) {
                    crt().close(target);
                    crt().put(target, crt().handles.open(file, true));
                } else {
                    long copy = crt().handles.open(file, true);
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
            crtLock("_dup(" + fd + ")", fd);
            requireOpen(c, crt().isOpen(fd), "_dup(" + fd + ")");
            return allocate(c, fileWithHandle(c, fd), true);
        }), 0);
    }

    /** Both ends on the lowest free descriptors, their handles inheritable unless {@code _O_NOINHERIT}. */
    @Override
    public int pipe(int[] fds, int size, int flags) {
        return recorded("_pipe", String.valueOf(size), crtCall(Op.PIPE, -1, -1, null, c -> {
            int[] ends = kernel.newPipe();
            if (ends[1] < 0) {
                throw FakeKernel.error(c, FakeErrors.EMFILE, "EMFILE (Too many open files)");
            }
            if ((flags & WindowsPlatform.O_NOINHERIT) == 0) {
                crt().handles.setInheritable(crt().osHandle(ends[0]), true);
                crt().handles.setInheritable(crt().osHandle(ends[1]), true);
            }
            fds[0] = ends[0];
            fds[1] = ends[1];
            return 0;
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

    /** A call on a descriptor that is not open: the invalid-parameter handler, then {@code EBADF}. */
    private void requireOpen(Call c, boolean open, String call) throws DescriptorException {
        if (!open) {
            invalidParameter(call);
            throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
        }
    }

    /** The file open descriptor {@code fd}'s handle names; {@code EBADF} when it is open with no handle. */
    private FakeFile fileWithHandle(Call c, int fd) throws DescriptorException {
        FakeFile file = crt().file(fd);
        if (file == null) {
            throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (fd " + fd + " has no OS handle)");
        }
        return file;
    }

    private int allocate(Call c, FakeFile file, boolean inheritable) throws DescriptorException {
        long h = crt().handles.open(file, inheritable);
        int fd = crt().allocate(h);
        if (fd < 0) {
            crt().handles.close(h);
            throw FakeKernel.error(c, FakeErrors.EMFILE, "EMFILE (Too many open files)");
        }
        return fd;
    }

    @Override
    public int close(int fd) {
        return recorded("_close", String.valueOf(fd), crtCall(Op.CLOSE, fd, -1, null, c -> {
            crtLock("_close(" + fd + ")", fd);
            requireOpen(c, crt().isOpen(fd), "_close(" + fd + ")");
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

    private static final int ERROR_NOT_SUPPORTED = 50;

    /** The model has no other processes to wait for: each call of a wait fails with ERROR_NOT_SUPPORTED. */
    private long notSupported() {
        errors.get()[1] = ERROR_NOT_SUPPORTED;
        return 0;
    }

    @Override
    public long openProcessToWait(long pid) {
        return notSupported();
    }

    @Override
    public long createWakeEvent() {
        return notSupported();
    }

    @Override
    public boolean setEvent(long event) {
        return notSupported() != 0;
    }

    @Override
    public int waitForAny(long[] handles) {
        notSupported();
        return -1;
    }

    /** A query on {@code f} waits for its file object's lock, held by a synchronous call blocked on it. */
    final void query(FakeFile f, String what) {
        kernel.threads.awaitLock(what + " on " + f.label + " (its file object's lock)", () -> f.ioOwner);
    }

    /** Waits for the C runtime's lock of {@code fd}, held by a native {@code _read} or {@code _write} blocked on it. */
    final void crtLock(String call, int fd) {
        kernel.threads.awaitLock(call + ": the C runtime's lock of fd " + fd, () -> crt().crtLocks.get(fd));
    }

    final void invalidParameter(String call) {
        if (!suppressesInvalidParameters) {
            kernel.violation(call + " on a descriptor that is not open, with the invalid-parameter handler not suppressed");
            throw new FastFail(call);
        }
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

}
