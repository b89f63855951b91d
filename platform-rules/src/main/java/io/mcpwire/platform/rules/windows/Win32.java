package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.rules.NativeMemory;

/**
 * The Universal C Runtime and Win32 calls the Windows provider makes, as one binding (JNA, the
 * JDK's foreign function API) makes them. The C runtime calls suppress the runtime's
 * invalid-parameter handler on the calling thread for their length, so that a descriptor that is
 * not open gives {@code EBADF} rather than ending the process. {@link #crtErrno()} and
 * {@link #lastError()} are the calling thread's {@code errno} and {@code GetLastError()} after its
 * last call through this binding.
 */
public interface Win32 {
    /** {@code HANDLE_FLAG_INHERIT}. */
    int HANDLE_FLAG_INHERIT = 1;
    /** {@code HANDLE_FLAG_PROTECT_FROM_CLOSE}: {@code CloseHandle} leaves such a handle open. */
    int HANDLE_FLAG_PROTECT_FROM_CLOSE = 2;
    /** {@code JobObjectExtendedLimitInformation}, the information class {@link #setJobLimits} sets. */
    int JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9;
    /** {@code sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION)} on x64. */
    int JOB_EXTENDED_LIMITS_BYTES = 144;
    /** The offset of {@code BasicLimitInformation.LimitFlags} in it, after two {@code LARGE_INTEGER}s. */
    int JOB_LIMIT_FLAGS_OFFSET = 16;
    /** {@code JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE}. */
    int JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000;
    /** {@code JOB_OBJECT_LIMIT_BREAKAWAY_OK}. */
    int JOB_OBJECT_LIMIT_BREAKAWAY_OK = 0x800;
    /** The limits of the children's job: {@code KILL_ON_JOB_CLOSE | BREAKAWAY_OK}. */
    int CHILDREN_JOB_LIMITS = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_BREAKAWAY_OK;

    /** {@code _get_osfhandle(fd)}: the OS handle; -1 when fd is not open, -2 when it is open without one. */
    long getOsfHandle(int fd);

    /** {@code _open_osfhandle(handle, flags)}: a new C runtime descriptor, or -1. */
    int openOsfHandle(long handle, int flags);

    /**
     * {@code _dup(fd)}: a new descriptor, the lowest free, on an inheritable duplicate of fd's
     * handle, or -1. Unlike {@code _open_osfhandle} it asks nothing of the handle
     * ({@code lowio/dup.cpp}), so it never waits for the file object's lock that a blocked
     * {@code ReadFile} or {@code WriteFile} holds; but it takes the C runtime's own lock of fd for
     * its length, which a native {@code _read(fd)} or {@code _write(fd)} holds while it blocks
     * ({@code lowio/read.cpp}, {@code write.cpp}), and then waits with no timeout.
     */
    int dup(int fd);

    /**
     * {@code _pipe(fds, size, flags)}: a pipe of {@code size} bytes, its read end in {@code fds[0]}
     * and its write end in {@code fds[1]}, each on the lowest free descriptor; 0, or -1.
     */
    int pipe(int[] fds, int size, int flags);

    /** {@code _dup2(source, target)}: 0, or -1. Takes the C runtime's locks of both descriptors, as {@link #dup} does. */
    int dup2(int source, int target);

    /** {@code _open(path, flags)}: a new descriptor, or -1. */
    int open(String path, int flags);

    /** {@code _wopen(path, flags, mode)}: a new descriptor, or -1. */
    int wopen(String path, int flags, int mode);

    /** {@code _close(fd)}: 0, or -1. Takes the C runtime's lock of fd, as {@link #dup} does. */
    int close(int fd);

    /** {@code _get_errno()}. */
    int crtErrno();

    /** {@code GetLastError()}. */
    int lastError();

    /**
     * {@code DuplicateHandle} of {@code handle} within this process, same access.
     *
     * @param inheritable whether a child started with handle inheritance gets it
     * @return the new handle, or 0 on failure
     */
    long duplicateHandle(long handle, boolean inheritable);

    /** {@code SetHandleInformation(handle, HANDLE_FLAG_INHERIT, ...)}: whether a child inherits {@code handle}. */
    boolean setInheritable(long handle, boolean inheritable);

    /**
     * {@code CancelIoEx(handle, NULL)}: cancels the I/O pending on the file object {@code handle}
     * names, made by any thread of the process through any handle on it.
     *
     * @return whether something was cancelled ({@code ERROR_NOT_FOUND} otherwise)
     */
    boolean cancelIo(long handle);

    /** {@code CloseHandle(handle)}. */
    boolean closeHandle(long handle);

    /** {@code GetStdHandle(slot)}, {@code slot} one of {@code STD_INPUT_HANDLE} (-10) and the like. */
    long getStdHandle(int slot);

    /** {@code SetStdHandle(slot, handle)}. */
    boolean setStdHandle(int slot, long handle);

    /**
     * {@code GetFileType(handle)}. It asks the I/O manager ({@code NtQueryVolumeInformationFile}),
     * which waits, with no timeout, for the lock of a synchronous file object that a blocked
     * {@code ReadFile} or {@code WriteFile} of any thread or child holds; so do {@link #isConsole}
     * and {@link #fileId}.
     */
    int getFileType(long handle);

    /** Whether {@code GetConsoleMode(handle)} succeeds: the handle is a console. */
    boolean isConsole(long handle);

    /**
     * A disk file's volume serial number and file index, from {@code GetFileInformationByHandle}.
     *
     * @return {volume, index}, or null on failure
     */
    long[] fileId(long handle);

    /**
     * {@code CompareObjectHandles(a, b)} (Windows 10 1607 and later).
     *
     * @return whether both name one kernel object, or null where the call is missing
     */
    Boolean compareObjectHandles(long a, long b);

    /** Native memory of {@code bytes} bytes, zeroed, freed when no longer reachable. */
    NativeMemory allocate(long bytes);

    /** {@code ReadFile(handle, buffer, count)}, synchronous: the bytes read, or -1 on failure. */
    int readFile(long handle, NativeMemory buffer, int count);

    /** {@code WriteFile(handle, buffer + offset, count)}, synchronous: the bytes written, or -1 on failure. */
    int writeFile(long handle, NativeMemory buffer, int offset, int count);

    /** A handle on the calling thread that {@link #cancelSynchronousIo} can use ({@code OpenThread(THREAD_TERMINATE)}). */
    long openCurrentThread();

    /** {@code CancelSynchronousIo(thread)}. */
    boolean cancelSynchronousIo(long thread);

    /**
     * {@code SetThreadAffinityMask(GetCurrentThread(), 1 << GetCurrentProcessorNumber())}: keeps
     * the calling thread on the processor it runs on now.
     *
     * @return the previous affinity mask, for {@link #unpin}; 0 when the call failed
     */
    long pinToCurrentProcessor();

    /** {@code SetThreadAffinityMask(GetCurrentThread(), previous)}: the calling thread may run anywhere it could before. */
    void unpin(long previous);

    /** {@code GetHandleInformation(handle)}: its flags ({@link #HANDLE_FLAG_INHERIT}, {@link #HANDLE_FLAG_PROTECT_FROM_CLOSE}), or -1 when it is not a handle. */
    int handleFlags(long handle);

    /** {@code SetHandleInformation(handle, HANDLE_FLAG_PROTECT_FROM_CLOSE, ...)}: whether {@code CloseHandle} leaves {@code handle} open. */
    boolean setProtectFromClose(long handle, boolean protect);

    /**
     * {@code CreateJobObjectW(NULL, NULL)}: a new job object without a name, whose handle no child
     * inherits.
     *
     * @return its handle, or 0 on failure
     */
    long createJobObject();

    /**
     * {@code SetInformationJobObject(job, JobObjectExtendedLimitInformation, ...)} with
     * {@link #CHILDREN_JOB_LIMITS} the limit flags, every other member zero: every process in the
     * job is ended when the job's last handle closes, as it does when this process ends, however
     * it ends; a process started with {@code CREATE_BREAKAWAY_FROM_JOB} leaves the job, as a process
     * that detaches itself does.
     */
    boolean setJobLimits(long job);

    /** {@code AssignProcessToJobObject(job, GetCurrentProcess())}: this process, and every process it starts from now on, in the job. */
    boolean assignCurrentProcess(long job);

    /**
     * Whether this binding makes the four calls of a wait for other processes' exits
     * ({@link #openProcessToWait}, {@link #createWakeEvent}, {@link #setEvent},
     * {@link #waitForAny}); the default says it does not, and the host watch then polls.
     */
    default boolean waitsForProcesses() {
        return false;
    }

    /**
     * {@code OpenProcess(SYNCHRONIZE, FALSE, pid)}: a handle, which no child inherits, that is
     * signalled once the process has exited.
     *
     * @return the handle, or 0 on failure ({@code ERROR_INVALID_PARAMETER}: no process has that id)
     */
    default long openProcessToWait(long pid) {
        throw new UnsupportedOperationException("this binding does not wait for processes");
    }

    /** {@code CreateEventW(NULL, TRUE, FALSE, NULL)}: a manual-reset event, not signalled; 0 on failure. */
    default long createWakeEvent() {
        throw new UnsupportedOperationException("this binding does not wait for processes");
    }

    /** {@code SetEvent(event)}. */
    default boolean setEvent(long event) {
        throw new UnsupportedOperationException("this binding does not wait for processes");
    }

    /**
     * {@code WaitForMultipleObjects(n, handles, FALSE, INFINITE)}: blocks until one of at most 64
     * handles is signalled.
     *
     * @return the index of a signalled handle, or -1 ({@code WAIT_FAILED}, see {@link #lastError()})
     */
    default int waitForAny(long[] handles) {
        throw new UnsupportedOperationException("this binding does not wait for processes");
    }

    /**
     * The monitor every Java child start of this process takes around its {@code CreateProcess}:
     * {@code java.lang.ProcessImpl.class} ({@code ProcessImpl.create} is {@code static synchronized}),
     * so that holding it keeps {@code ProcessBuilder.start()} of every other thread out. A model
     * gives its own.
     */
    default Object childStartLock() {
        return ChildStarts.MONITOR;
    }
}
