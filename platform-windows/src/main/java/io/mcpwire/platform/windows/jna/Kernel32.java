package io.mcpwire.platform.windows.jna;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;

/**
 * The {@code kernel32.dll} calls of the provider; {@code HANDLE}s are 64-bit {@code long}s. The
 * standard-handle slots and file types are the shared rules' ({@code WindowsPlatform}).
 */
public interface Kernel32 extends Library {
    /** {@code DUPLICATE_SAME_ACCESS}. */
    int DUPLICATE_SAME_ACCESS = 2;
    /** {@code HANDLE_FLAG_INHERIT}. */
    int HANDLE_FLAG_INHERIT = 1;
    /** {@code HANDLE_FLAG_PROTECT_FROM_CLOSE}. */
    int HANDLE_FLAG_PROTECT_FROM_CLOSE = 2;
    /** {@code THREAD_TERMINATE}: the access {@code CancelSynchronousIo} needs. */
    int THREAD_TERMINATE = 1;

    /** {@code SYNCHRONIZE}: the access a wait on a process's handle needs. */
    int SYNCHRONIZE = 0x00100000;
    /** {@code INFINITE}. */
    int INFINITE = 0xFFFFFFFF;

    /** {@code HANDLE OpenProcess(DWORD dwDesiredAccess, BOOL bInheritHandle, DWORD dwProcessId)}. */
    long OpenProcess(int desiredAccess, boolean inheritHandle, int processId);

    /** {@code HANDLE CreateEventW(LPSECURITY_ATTRIBUTES, BOOL bManualReset, BOOL bInitialState, LPCWSTR)}. */
    long CreateEventW(Pointer attributes, boolean manualReset, boolean initialState, Pointer name);

    /** {@code BOOL SetEvent(HANDLE)}. */
    boolean SetEvent(long event);

    /** {@code DWORD WaitForMultipleObjects(DWORD nCount, const HANDLE *lpHandles, BOOL bWaitAll, DWORD dwMilliseconds)}. */
    int WaitForMultipleObjects(int count, long[] handles, boolean waitAll, int milliseconds);

    /** {@code HANDLE CreateJobObjectW(LPSECURITY_ATTRIBUTES, LPCWSTR)}. */
    long CreateJobObjectW(Pointer attributes, Pointer name);

    /** {@code BOOL SetInformationJobObject(HANDLE, JOBOBJECTINFOCLASS, LPVOID, DWORD)}. */
    boolean SetInformationJobObject(long job, int informationClass, Pointer information, int length);

    /** {@code BOOL AssignProcessToJobObject(HANDLE hJob, HANDLE hProcess)}. */
    boolean AssignProcessToJobObject(long job, long process);

    /** {@code BOOL SetStdHandle(DWORD nStdHandle, HANDLE hHandle)}. */
    boolean SetStdHandle(int stdHandle, long handle);

    /** {@code HANDLE GetStdHandle(DWORD nStdHandle)}. */
    long GetStdHandle(int stdHandle);

    /** {@code HANDLE GetCurrentProcess()}: a pseudo-handle. */
    long GetCurrentProcess();

    /** {@code BOOL DuplicateHandle(...)}. */
    boolean DuplicateHandle(long sourceProcess, long source, long targetProcess, LongByReference target,
                            int desiredAccess, boolean inheritHandle, int options);

    /** {@code BOOL CloseHandle(HANDLE)}. */
    boolean CloseHandle(long handle);

    /** {@code DWORD GetFileType(HANDLE)}. */
    int GetFileType(long handle);

    /** {@code BOOL GetConsoleMode(HANDLE, LPDWORD)}: succeeds only on a console. */
    boolean GetConsoleMode(long handle, IntByReference mode);

    /** {@code BOOL GetFileInformationByHandle(HANDLE, LPBY_HANDLE_FILE_INFORMATION)}: 52 bytes. */
    boolean GetFileInformationByHandle(long handle, Pointer information);

    /** {@code BOOL ReadFile(HANDLE, LPVOID, DWORD, LPDWORD, LPOVERLAPPED)}, synchronous. */
    boolean ReadFile(long handle, Pointer buffer, int toRead, IntByReference read, Pointer overlapped);

    /** {@code BOOL WriteFile(HANDLE, LPCVOID, DWORD, LPDWORD, LPOVERLAPPED)}, synchronous. */
    boolean WriteFile(long handle, Pointer buffer, int toWrite, IntByReference written, Pointer overlapped);

    /** {@code DWORD GetCurrentThreadId()}. */
    int GetCurrentThreadId();

    /** {@code HANDLE OpenThread(DWORD access, BOOL inherit, DWORD threadId)}. */
    long OpenThread(int access, boolean inheritHandle, int threadId);

    /** {@code BOOL SetHandleInformation(HANDLE, DWORD mask, DWORD flags)}. */
    boolean SetHandleInformation(long handle, int mask, int flags);

    /** {@code BOOL CancelIoEx(HANDLE, LPOVERLAPPED)}: with no {@code OVERLAPPED}, all I/O on the handle's file. */
    boolean CancelIoEx(long handle, Pointer overlapped);

    /** {@code BOOL CancelSynchronousIo(HANDLE thread)}. */
    boolean CancelSynchronousIo(long thread);

    /** {@code BOOL GetHandleInformation(HANDLE, LPDWORD flags)}. */
    boolean GetHandleInformation(long handle, IntByReference flags);

    /** {@code HANDLE GetCurrentThread()}: a pseudo-handle. */
    long GetCurrentThread();

    /** {@code DWORD GetCurrentProcessorNumber()}: within the thread's processor group. */
    int GetCurrentProcessorNumber();

    /** {@code DWORD_PTR SetThreadAffinityMask(HANDLE thread, DWORD_PTR mask)}: the previous mask, or 0. */
    long SetThreadAffinityMask(long thread, long mask);
}
