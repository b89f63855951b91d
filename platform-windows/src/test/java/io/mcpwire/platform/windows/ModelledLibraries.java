package io.mcpwire.platform.windows;

import com.sun.jna.Pointer;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.windows.Win32;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.platform.windows.jna.KernelBase;
import io.mcpwire.platform.windows.jna.Ucrt;
import java.util.ArrayList;
import java.util.List;

/**
 * The provider's JNA interfaces ({@link Ucrt}, {@link Kernel32}, {@link KernelBase}) answered by
 * the fake's model of Windows ({@link FakeProcess#windowsBinding()}), so that the provider's own
 * layer (the marshalling through JNA's native memory and references, and the quiet C runtime) runs
 * over the one Windows model the rest of the tests use.
 *
 * <p>Like the release C runtime with no invalid-parameter handler, a C runtime call made while the
 * calling thread has none installed ends "the process": here it is recorded
 * ({@link #unguardedCalls()}) and fails with {@link FastFail}.
 */
final class ModelledLibraries {
    /** What the release C runtime does on an invalid parameter with no handler installed: the process dies. */
    static final class FastFail extends Error {
        private static final long serialVersionUID = 1L;

        FastFail(String call) {
            super(call + " with no invalid-parameter handler installed: the release C runtime ends the process");
        }
    }

    private static final long CURRENT_PROCESS = -1;
    private static final long CURRENT_THREAD = -2;
    private static final long ALL_PROCESSORS = 0b11;

    final FakeProcess fake;
    private final Win32 model;
    private final ThreadLocal<Pointer> handler = new ThreadLocal<>();
    private final List<String> unguarded = new ArrayList<>();

    ModelledLibraries(FakeProcess fake) {
        this.fake = fake;
        this.model = fake.windowsBinding();
    }

    /** The provider over these libraries, with {@code CompareObjectHandles} (Windows 10 1607 and later) or without. */
    WindowsDescriptors provider(boolean compareObjectHandles) {
        return new WindowsDescriptors(new WindowsDescriptors.Libraries(ucrt, kernel32, compareObjectHandles ? kernelBase : null,
                model::lastError));
    }

    /** The C runtime calls made with no handler installed on their thread. */
    synchronized List<String> unguardedCalls() {
        return List.copyOf(unguarded);
    }

    private void guarded(String call) {
        if (handler.get() == null) {
            synchronized (this) {
                unguarded.add(call);
            }
            throw new FastFail(call);
        }
    }

    final Ucrt ucrt = new Ucrt() {
        @Override
        public int _dup(int fd) {
            guarded("_dup");
            return model.dup(fd);
        }

        @Override
        public int _pipe(int[] fds, int size, int textmode) {
            guarded("_pipe");
            return model.pipe(fds, size, textmode);
        }

        @Override
        public int _dup2(int source, int target) {
            guarded("_dup2");
            return model.dup2(source, target);
        }

        @Override
        public int _close(int fd) {
            guarded("_close");
            return model.close(fd);
        }

        @Override
        public int _open(String path, int flags) {
            guarded("_open");
            return model.open(path, flags);
        }

        @Override
        public int _wopen(WString path, int flags, int mode) {
            guarded("_wopen");
            return model.wopen(path.toString(), flags, mode);
        }

        @Override
        public long _get_osfhandle(int fd) {
            guarded("_get_osfhandle");
            return model.getOsfHandle(fd);
        }

        @Override
        public int _open_osfhandle(long handle, int flags) {
            guarded("_open_osfhandle");
            return model.openOsfHandle(handle, flags);
        }

        @Override
        public Pointer _set_thread_local_invalid_parameter_handler(InvalidParameterHandler h) {
            Pointer previous = handler.get();
            handler.set(h == null ? null : new Pointer(1)); // any address: only whether one is installed matters
            return previous;
        }

        @Override
        public Pointer _set_thread_local_invalid_parameter_handler(Pointer previous) {
            Pointer replaced = handler.get();
            handler.set(previous);
            return replaced;
        }

        @Override
        public int _get_errno(IntByReference value) {
            value.setValue(model.crtErrno());
            return 0;
        }
    };

    final Kernel32 kernel32 = new Kernel32() {
        @Override
        public boolean SetStdHandle(int stdHandle, long handle) {
            return model.setStdHandle(stdHandle, handle);
        }

        @Override
        public long GetStdHandle(int stdHandle) {
            return model.getStdHandle(stdHandle);
        }

        @Override
        public long GetCurrentProcess() {
            return CURRENT_PROCESS;
        }

        @Override
        public boolean DuplicateHandle(long sourceProcess, long source, long targetProcess, LongByReference target,
                                       int access, boolean inherit, int options) {
            if (sourceProcess != CURRENT_PROCESS || targetProcess != CURRENT_PROCESS || options != DUPLICATE_SAME_ACCESS) {
                throw new AssertionError("a duplicate within this process, with the same access, is all the provider makes");
            }
            long copy = model.duplicateHandle(source, inherit);
            target.setValue(copy);
            return copy != 0;
        }

        @Override
        public boolean CloseHandle(long handle) {
            return model.closeHandle(handle);
        }

        @Override
        public long CreateJobObjectW(Pointer attributes, Pointer name) {
            if (attributes != null || name != null) {
                throw new AssertionError("a job without a name, whose handle no child inherits, is all the provider makes");
            }
            return model.createJobObject();
        }

        /** Reads the limits back as the kernel would: kill-on-close and breakaway the flags, every other member zero. */
        @Override
        public boolean SetInformationJobObject(long job, int informationClass, Pointer information, int length) {
            if (informationClass != Win32.JOB_OBJECT_EXTENDED_LIMIT_INFORMATION || length != Win32.JOB_EXTENDED_LIMITS_BYTES) {
                throw new AssertionError("JOBOBJECT_EXTENDED_LIMIT_INFORMATION expected, got class " + informationClass + ", " + length + " bytes");
            }
            byte[] limits = information.getByteArray(0, length);
            for (int i = 0; i < length; i++) {
                boolean flags = i >= Win32.JOB_LIMIT_FLAGS_OFFSET && i < Win32.JOB_LIMIT_FLAGS_OFFSET + 4;
                if (!flags && limits[i] != 0) {
                    throw new AssertionError("byte " + i + " of the limits is " + limits[i] + ": a limit the provider does not mean");
                }
            }
            if (information.getInt(Win32.JOB_LIMIT_FLAGS_OFFSET) != (Win32.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | Win32.JOB_OBJECT_LIMIT_BREAKAWAY_OK)) {
                throw new AssertionError("LimitFlags " + Integer.toHexString(information.getInt(Win32.JOB_LIMIT_FLAGS_OFFSET)));
            }
            return model.setJobLimits(job);
        }

        @Override
        public long OpenProcess(int desiredAccess, boolean inheritHandle, int processId) {
            if (desiredAccess != SYNCHRONIZE || inheritHandle) {
                throw new AssertionError("a wait opens a process for SYNCHRONIZE alone, its handle not inherited");
            }
            return model.openProcessToWait(processId);
        }

        @Override
        public long CreateEventW(Pointer attributes, boolean manualReset, boolean initialState, Pointer name) {
            if (attributes != null || name != null || !manualReset || initialState) {
                throw new AssertionError("a wait's wake is an unnamed manual-reset event, not set, that no child inherits");
            }
            return model.createWakeEvent();
        }

        @Override
        public boolean SetEvent(long event) {
            return model.setEvent(event);
        }

        @Override
        public int WaitForMultipleObjects(int count, long[] handles, boolean waitAll, int milliseconds) {
            if (count != handles.length || waitAll || milliseconds != INFINITE) {
                throw new AssertionError("a wait is for any one of its handles, for as long as it takes");
            }
            return model.waitForAny(handles);
        }

        @Override
        public boolean AssignProcessToJobObject(long job, long process) {
            if (process != CURRENT_PROCESS) {
                throw new AssertionError("only this process is put in the job");
            }
            return model.assignCurrentProcess(job);
        }

        @Override
        public int GetFileType(long handle) {
            return model.getFileType(handle);
        }

        @Override
        public boolean GetConsoleMode(long handle, IntByReference mode) {
            return model.isConsole(handle);
        }

        @Override
        public boolean GetFileInformationByHandle(long handle, Pointer information) {
            long[] id = model.fileId(handle);
            if (id == null) {
                return false;
            }
            information.setInt(offsetOf("dwVolumeSerialNumber"), (int) id[0]);
            information.setInt(offsetOf("nFileIndexHigh"), (int) (id[1] >>> 32));
            information.setInt(offsetOf("nFileIndexLow"), (int) id[1]);
            return true;
        }

        @Override
        public boolean ReadFile(long handle, Pointer buffer, int toRead, IntByReference read, Pointer overlapped) {
            NativeMemory into = model.allocate(toRead);
            int n = model.readFile(handle, into, toRead);
            if (n < 0) {
                return false;
            }
            byte[] bytes = new byte[n];
            into.read(0, bytes, 0, n);
            buffer.write(0, bytes, 0, n);
            read.setValue(n);
            return true;
        }

        @Override
        public boolean WriteFile(long handle, Pointer buffer, int toWrite, IntByReference written, Pointer overlapped) {
            NativeMemory from = model.allocate(toWrite);
            from.write(0, buffer.getByteArray(0, toWrite), 0, toWrite);
            int n = model.writeFile(handle, from, 0, toWrite);
            if (n < 0) {
                return false;
            }
            written.setValue(n);
            return true;
        }

        @Override
        public int GetCurrentThreadId() {
            return (int) Thread.currentThread().getId();
        }

        @Override
        public long OpenThread(int access, boolean inheritHandle, int threadId) {
            if (threadId != (int) Thread.currentThread().getId()) {
                throw new AssertionError("the provider opens the calling thread only");
            }
            return model.openCurrentThread();
        }

        @Override
        public boolean SetHandleInformation(long handle, int mask, int flags) {
            if (mask == HANDLE_FLAG_PROTECT_FROM_CLOSE) {
                return model.setProtectFromClose(handle, (flags & HANDLE_FLAG_PROTECT_FROM_CLOSE) != 0);
            }
            if (mask != HANDLE_FLAG_INHERIT) {
                throw new AssertionError("the provider changes inheritance or protection from close, one at a time");
            }
            return model.setInheritable(handle, (flags & HANDLE_FLAG_INHERIT) != 0);
        }

        @Override
        public boolean GetHandleInformation(long handle, IntByReference flags) {
            int f = model.handleFlags(handle);
            flags.setValue(Math.max(f, 0));
            return f >= 0;
        }

        @Override
        public long GetCurrentThread() {
            return CURRENT_THREAD;
        }

        @Override
        public int GetCurrentProcessorNumber() {
            return 0;
        }

        /** A mask of one processor pins the calling thread in the model; any other puts it back. */
        @Override
        public long SetThreadAffinityMask(long thread, long mask) {
            if (thread != CURRENT_THREAD) {
                throw new AssertionError("the provider pins the calling thread only");
            }
            if (Long.bitCount(mask) == 1) {
                model.pinToCurrentProcessor();
                return ALL_PROCESSORS;
            }
            model.unpin(mask);
            return mask;
        }

        @Override
        public boolean CancelIoEx(long handle, Pointer overlapped) {
            return model.cancelIo(handle);
        }

        @Override
        public boolean CancelSynchronousIo(long thread) {
            return model.cancelSynchronousIo(thread);
        }
    };

    /**
     * Where a field of {@code BY_HANDLE_FILE_INFORMATION} lies, from the structure as Windows
     * declares it (DWORD 4 bytes, FILETIME 8), not from the code under test.
     */
    static long offsetOf(String field) {
        String[][] declared = {{"dwFileAttributes", "4"}, {"ftCreationTime", "8"}, {"ftLastAccessTime", "8"},
            {"ftLastWriteTime", "8"}, {"dwVolumeSerialNumber", "4"}, {"nFileSizeHigh", "4"}, {"nFileSizeLow", "4"},
            {"nNumberOfLinks", "4"}, {"nFileIndexHigh", "4"}, {"nFileIndexLow", "4"}};
        long offset = 0;
        for (String[] f : declared) {
            if (f[0].equals(field)) {
                return offset;
            }
            offset += Integer.parseInt(f[1]);
        }
        throw new IllegalArgumentException(field);
    }

    final KernelBase kernelBase = new KernelBase() {
        @Override
        public boolean CompareObjectHandles(long first, long second) {
            return Boolean.TRUE.equals(model.compareObjectHandles(first, second));
        }
    };
}
