package io.mcpwire.platform.windows;

import com.sun.jna.Memory;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.windows.FileInformation;
import io.mcpwire.platform.rules.windows.Win32;
import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.platform.windows.jna.KernelBase;
import io.mcpwire.platform.windows.jna.Ucrt;
import java.util.function.IntSupplier;

/**
 * The Windows calls through JNA: the Universal C Runtime ({@code ucrtbase}) with its
 * invalid-parameter handler suppressed around each call ({@link QuietCrt}), {@code kernel32}, and
 * {@code kernelbase}'s {@code CompareObjectHandles} where it exists.
 */
final class JnaWin32 implements Win32 {
    private final Ucrt ucrt;
    private final Kernel32 kernel32;
    /** Null before Windows 10 1607. */
    private final KernelBase kernelBase;
    private final IntSupplier lastError;

    JnaWin32(WindowsDescriptors.Libraries l) {
        this.ucrt = l.ucrt();
        this.kernel32 = l.kernel32();
        this.kernelBase = l.kernelBase();
        this.lastError = l.lastError();
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
    public long getOsfHandle(int fd) {
        return QuietCrt.osHandle(ucrt, fd);
    }

    @Override
    public int openOsfHandle(long handle, int flags) {
        return QuietCrt.call(ucrt, () -> ucrt._open_osfhandle(handle, flags));
    }

    @Override
    public int dup(int fd) {
        return QuietCrt.call(ucrt, () -> ucrt._dup(fd));
    }

    @Override
    public int pipe(int[] fds, int size, int flags) {
        return QuietCrt.call(ucrt, () -> ucrt._pipe(fds, size, flags));
    }

    @Override
    public int dup2(int source, int target) {
        return QuietCrt.call(ucrt, () -> ucrt._dup2(source, target));
    }

    @Override
    public int open(String path, int flags) {
        return QuietCrt.call(ucrt, () -> ucrt._open(path, flags));
    }

    @Override
    public int wopen(String path, int flags, int mode) {
        return QuietCrt.call(ucrt, () -> ucrt._wopen(new WString(path), flags, mode));
    }

    @Override
    public int close(int fd) {
        return QuietCrt.call(ucrt, () -> ucrt._close(fd));
    }

    @Override
    public int crtErrno() {
        IntByReference errno = new IntByReference();
        ucrt._get_errno(errno);
        return errno.getValue();
    }

    @Override
    public int lastError() {
        return lastError.getAsInt();
    }

    @Override
    public long duplicateHandle(long handle, boolean inheritable) {
        LongByReference copy = new LongByReference();
        long self = kernel32.GetCurrentProcess();
        return kernel32.DuplicateHandle(self, handle, self, copy, 0, inheritable, Kernel32.DUPLICATE_SAME_ACCESS) ? copy.getValue() : 0;
    }

    @Override
    public boolean setInheritable(long handle, boolean inheritable) {
        return kernel32.SetHandleInformation(handle, Kernel32.HANDLE_FLAG_INHERIT, inheritable ? Kernel32.HANDLE_FLAG_INHERIT : 0);
    }

    @Override
    public boolean cancelIo(long handle) {
        return kernel32.CancelIoEx(handle, null);
    }

    @Override
    public boolean closeHandle(long handle) {
        return kernel32.CloseHandle(handle);
    }

    @Override
    public long getStdHandle(int slot) {
        return kernel32.GetStdHandle(slot);
    }

    @Override
    public boolean setStdHandle(int slot, long handle) {
        return kernel32.SetStdHandle(slot, handle);
    }

    @Override
    public int getFileType(long handle) {
        return kernel32.GetFileType(handle);
    }

    @Override
    public boolean isConsole(long handle) {
        return kernel32.GetConsoleMode(handle, new IntByReference());
    }

    @Override
    public long[] fileId(long handle) {
        Memory info = new Memory(FileInformation.SIZE);
        if (!kernel32.GetFileInformationByHandle(handle, info)) {
            return null;
        }
        return FileInformation.id(info::getInt);
    }

    @Override
    public Boolean compareObjectHandles(long a, long b) {
        if (kernelBase == null) {
            return null;
        }
        try {
            return kernelBase.CompareObjectHandles(a, b);
        } catch (UnsatisfiedLinkError e) {
            return null;
        }
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return new JnaMemory(bytes);
    }

    @Override
    public int readFile(long handle, NativeMemory buffer, int count) {
        IntByReference read = new IntByReference();
        return kernel32.ReadFile(handle, of(buffer), count, read, null) ? read.getValue() : -1;
    }

    @Override
    public int writeFile(long handle, NativeMemory buffer, int offset, int count) {
        IntByReference written = new IntByReference();
        return kernel32.WriteFile(handle, of(buffer).share(offset), count, written, null) ? written.getValue() : -1;
    }

    @Override
    public long openCurrentThread() {
        return kernel32.OpenThread(Kernel32.THREAD_TERMINATE, false, kernel32.GetCurrentThreadId());
    }

    @Override
    public boolean cancelSynchronousIo(long thread) {
        return kernel32.CancelSynchronousIo(thread);
    }

    @Override
    public long pinToCurrentProcessor() {
        int cpu = kernel32.GetCurrentProcessorNumber(); // within the thread's group, 0 to 63
        return kernel32.SetThreadAffinityMask(kernel32.GetCurrentThread(), 1L << (cpu & 63));
    }

    @Override
    public void unpin(long previous) {
        if (previous != 0) {
            kernel32.SetThreadAffinityMask(kernel32.GetCurrentThread(), previous);
        }
    }

    @Override
    public int handleFlags(long handle) {
        IntByReference flags = new IntByReference();
        return kernel32.GetHandleInformation(handle, flags) ? flags.getValue() : -1;
    }

    @Override
    public boolean setProtectFromClose(long handle, boolean protect) {
        return kernel32.SetHandleInformation(handle, Kernel32.HANDLE_FLAG_PROTECT_FROM_CLOSE,
                protect ? Kernel32.HANDLE_FLAG_PROTECT_FROM_CLOSE : 0);
    }

    @Override
    public long createJobObject() {
        return kernel32.CreateJobObjectW(null, null);
    }

    @Override
    public boolean setJobLimits(long job) {
        Memory limits = new Memory(JOB_EXTENDED_LIMITS_BYTES);
        limits.clear();
        limits.setInt(JOB_LIMIT_FLAGS_OFFSET, CHILDREN_JOB_LIMITS);
        return kernel32.SetInformationJobObject(job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, limits, JOB_EXTENDED_LIMITS_BYTES);
    }

    @Override
    public boolean waitsForProcesses() {
        return true;
    }

    @Override
    public long openProcessToWait(long pid) {
        return kernel32.OpenProcess(Kernel32.SYNCHRONIZE, false, (int) pid);
    }

    @Override
    public long createWakeEvent() {
        return kernel32.CreateEventW(null, true, false, null);
    }

    @Override
    public boolean setEvent(long event) {
        return kernel32.SetEvent(event);
    }

    @Override
    public int waitForAny(long[] handles) {
        return kernel32.WaitForMultipleObjects(handles.length, handles, false, Kernel32.INFINITE);
    }

    @Override
    public boolean assignCurrentProcess(long job) {
        return kernel32.AssignProcessToJobObject(job, kernel32.GetCurrentProcess());
    }
}
