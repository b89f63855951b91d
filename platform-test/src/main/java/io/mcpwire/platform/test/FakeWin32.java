package io.mcpwire.platform.test;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.windows.Win32;
import java.nio.channels.AsynchronousCloseException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The C runtime ({@link FakeUcrt}) and Win32 calls of a fake process that models Windows
 * ({@link FakeCrt}), as the {@link Win32} binding that the shared
 * Windows rules run over; this class holds the Win32 half: handles, slots, queries, and
 * {@code ReadFile}/{@code WriteFile} with the two ways to cancel them. Each call that can fail is
 * logged, open to a scripted failure and followed by the wire check; lookups that cannot fail on a
 * live handle ({@code GetStdHandle}, {@code CompareObjectHandles}, {@code GetConsoleMode},
 * {@code CloseHandle}, {@code CancelIoEx}) are not.
 *
 * <p>Threads: everything is guarded by the kernel's lock; the calling thread's {@code errno} and
 * {@code GetLastError()} are its own.
 */
final class FakeWin32 extends FakeUcrt {
    private final Set<Thread> inBlockingCall = new HashSet<>();
    /** False as before Windows 10 1607, which has no {@code CompareObjectHandles}. */
    private volatile boolean comparesHandles = true;

    /**
     * The binding over {@code kernel}; {@code suppressesInvalidParameters} as the real bindings
     * do, or not, to see the fast fail.
     */
    FakeWin32(FakeKernel kernel, boolean suppressesInvalidParameters) {
        super(kernel, suppressesInvalidParameters);
    }

    // ------------------------------------------------------------------ Win32

    @Override
    public long duplicateHandle(long handle, boolean inheritable) {
        String h = named(handle);
        long result = win32(Op.DUPLICATE_HANDLE, handle, 0L, c -> crt().handles.open(live(c, handle), inheritable));
        return recorded("DuplicateHandle", h + (inheritable ? " 1" : " 0"), result, result);
    }

    @Override
    public boolean setInheritable(long handle, boolean inheritable) {
        String h = named(handle);
        return recorded("SetHandleInformation", h + (inheritable ? " 1" : " 0"), win32(Op.SET_HANDLE_INFORMATION, handle, false, c -> {
            live(c, handle);
            return crt().handles.setInheritable(handle, inheritable);
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
            FakeFile f = crt().handles.fileOf(handle);
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

    /**
     * Not a fault point: {@code CloseHandle} fails only on a handle that is not live, or that is
     * protected from close ({@code STATUS_HANDLE_NOT_CLOSABLE}, which Win32 reports as an invalid handle).
     */
    @Override
    public boolean closeHandle(long handle) {
        String h = named(handle);
        return recorded("CloseHandle", h, kernel.locked(() -> {
            boolean closed = crt().handles.close(handle);
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
            FakeFile f = crt().handles.fileOf(handle);
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

    /** From now on {@code CompareObjectHandles} is missing, as before Windows 10 1607. */
    void removeCompareObjectHandles() {
        comparesHandles = false;
    }

    @Override
    public Boolean compareObjectHandles(long a, long b) {
        if (!comparesHandles) {
            return null;
        }
        return kernel.locked(() -> {
            FakeFile fa = crt().handles.fileOf(a);
            return fa != null && fa == crt().handles.fileOf(b);
        });
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return new ModelMemory(bytes);
    }

    /** Blocks while a pipe is empty and still written to; {@code CancelSynchronousIo} ends the wait. */
    @Override
    public int readFile(long handle, NativeMemory buffer, int count) {
        byte[] into = ((ModelMemory) buffer).bytes;
        return win32(Op.READ, handle, -1, c -> {
            FakeFile f = live(c, handle);
            if (!f.canRead()) {
                throw FakeKernel.error(c, 5, "ERROR_ACCESS_DENIED (" + f.label + " is not open for reading)");
            }
            Thread me = Thread.currentThread();
            crt().pendingReads.put(f, me);
            try {
                int n = blocking(c, () -> kernel.synchronousIo(f, "ReadFile", () -> f.read(into, 0, count, crt().waitUnlessCancelled(kernel))));
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
        byte[] from = ((ModelMemory) buffer).bytes;
        return win32(Op.WRITE, handle, -1, c -> {
            FakeFile f = live(c, handle);
            if (!f.canWrite()) {
                throw FakeKernel.error(c, 5, "ERROR_ACCESS_DENIED (" + f.label + " is not open for writing)");
            }
            int n = blocking(c, () -> kernel.synchronousIo(f, "WriteFile", () -> f.write(from, offset, count, crt().waitUnlessCancelled(kernel))));
            if (n < 0) {
                throw FakeKernel.error(c, FakeErrors.ERROR_NO_DATA, "ERROR_NO_DATA (the pipe is being closed)");
            }
            return n;
        });
    }

    /** A handle on the calling thread, from the same table as every file handle (on the calling thread's processor). */
    @Override
    public long openCurrentThread() {
        long h = kernel.locked(() -> {
            kernel.threads.beforeOpenThread();
            Thread me = Thread.currentThread();
            return crt().handles.open(FakeFile.object(kernel.nextId(), FakeFile.Role.THREAD, "thread " + me.getName(), me), false);
        });
        return recorded("OpenThread", "", h, h, false);
    }

    /** Cancels the thread's call only while it is in one, as the real call does. */
    @Override
    public boolean cancelSynchronousIo(long thread) {
        return kernel.locked(() -> {
            FakeFile object = crt().handles.fileOf(thread);
            Thread t = object == null ? null : object.thread;
            if (t == null || !inBlockingCall.contains(t)) {
                errors.get()[1] = FakeErrors.ERROR_NOT_FOUND;
                return false;
            }
            crt().cancelled.add(t);
            kernel.changed.signalAll();
            return true;
        });
    }

    /** Pins the calling thread to the processor the model has it on: {@link Interference#MIGRATE} leaves it there. */
    @Override
    public long pinToCurrentProcessor() {
        return kernel.locked(() -> {
            kernel.threads.pin(Thread.currentThread());
            return 1L << kernel.threads.cpuOf(Thread.currentThread());
        });
    }

    @Override
    public void unpin(long previous) {
        kernel.locked(() -> {
            kernel.threads.unpin(Thread.currentThread());
            return null;
        });
    }

    @Override
    public int handleFlags(long handle) {
        return kernel.locked(() -> {
            FakeHandles.Handle h = crt().handles.get(handle);
            if (h == null) {
                errors.get()[1] = FakeErrors.ERROR_INVALID_HANDLE;
                return -1;
            }
            return (h.inheritable() ? HANDLE_FLAG_INHERIT : 0) | (h.protectFromClose() ? HANDLE_FLAG_PROTECT_FROM_CLOSE : 0);
        });
    }

    @Override
    public boolean setProtectFromClose(long handle, boolean protect) {
        String h = named(handle);
        return recorded("SetHandleProtect", h + (protect ? " 1" : " 0"), kernel.locked(() -> {
            boolean ok = crt().handles.setProtected(handle, protect);
            if (!ok) {
                errors.get()[1] = FakeErrors.ERROR_INVALID_HANDLE;
            }
            return ok;
        }), 0, false);
    }

    /** The model's own child-start monitor, which {@link FakeJvm#startChild} and {@link Interference#START_CHILD} take. */
    @Override
    public Object childStartLock() {
        return kernel.threads.childStartMonitor;
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

    private FakeFile live(Call c, long handle) throws DescriptorException {
        FakeFile f = crt().handles.fileOf(handle);
        if (f == null) {
            throw FakeKernel.error(c, FakeErrors.ERROR_INVALID_HANDLE, "ERROR_INVALID_HANDLE");
        }
        return f;
    }

    /** A Win32 call on {@code handle}: a failure sets {@code GetLastError()} and returns {@code failed}. */
    /**
     * The children's job; its creation is written to the claim script, since its handle takes a
     * value of the table, but not its limits or the assignment, which move nothing a replay compares.
     */
    @Override
    public long createJobObject() {
        long job = crtOrWin32(Op.JOB_OBJECT, -1, 0L, c -> crt().handles.open(FakeFile.object(kernel.nextId(), FakeFile.Role.JOB, "job", null), false));
        return recorded("CreateJobObjectW", "", job, job);
    }

    @Override
    public boolean setJobLimits(long job) {
        return crtOrWin32(Op.JOB_OBJECT, -1, false, c -> {
            jobOf(c, job);
            return true;
        });
    }

    @Override
    public boolean assignCurrentProcess(long job) {
        return crtOrWin32(Op.JOB_OBJECT, -1, false, c -> {
            jobOf(c, job);
            crt().job = Optional.of(job);
            return true;
        });
    }

    /** The job whose handle {@code job} is, or {@code ERROR_INVALID_HANDLE}. */
    private void jobOf(Call c, long job) throws DescriptorException {
        FakeFile f = crt().handles.fileOf(job);
        if (f == null || f.role != FakeFile.Role.JOB) {
            throw FakeKernel.error(c, FakeErrors.ERROR_INVALID_HANDLE, "ERROR_INVALID_HANDLE");
        }
    }

    /** The job the process was put in, if one was: a process cannot leave it. */
    Optional<Long> assignedJob() {
        return kernel.locked(() -> crt().job);
    }

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
