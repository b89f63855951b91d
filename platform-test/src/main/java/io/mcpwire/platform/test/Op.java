package io.mcpwire.platform.test;

/**
 * The platform operations a {@link FakeProcess} logs and can fail on script: the
 * {@code PlatformDescriptors} calls of its POSIX face, and the C runtime and Win32 calls of its
 * Windows model ({@code _dup2} is {@link #DUP2}, {@code _close} {@link #CLOSE}, {@code _open("NUL")}
 * {@link #OPEN_NULL}, {@code _wopen} {@link #OPEN_APPEND}).
 */
public enum Op {
    /** {@code duplicateAboveStandard(fd)}: the private duplicate. */
    DUP_ABOVE_STANDARD,
    /** {@code duplicate(fd)}; on Windows, {@code _dup}. */
    DUP,
    /** {@code duplicateOnto(source, target)}: {@code dup2}. */
    DUP2,
    /** {@code openNullDevice(access)}. */
    OPEN_NULL,
    /** {@code pipe()}; on Windows, {@code _pipe}: the stray-output drain's pipe. */
    PIPE,
    /** {@code openAppend(path)}: the stray-output file. */
    OPEN_APPEND,
    /** {@code standardOrigin(fd)}. */
    ORIGIN,
    /** {@code close(fd)}. */
    CLOSE,
    /** {@code rebindStandardHandle(fd)}. */
    REBIND,
    /** {@code identity(fd)}. */
    IDENTITY,
    /** {@code open(fd)}: a descriptor stream. */
    OPEN_STREAM,
    /** A read on a descriptor stream; on Windows, {@code ReadFile}. */
    READ,
    /** A write on a descriptor stream; on Windows, {@code WriteFile}. */
    WRITE,
    /** Windows: {@code _open_osfhandle(handle)}, a new C runtime descriptor for an OS handle. */
    OPEN_OSFHANDLE,
    /** Windows: {@code DuplicateHandle} within the process. */
    DUPLICATE_HANDLE,
    /** Windows: {@code SetHandleInformation}, whether a child inherits a handle. */
    SET_HANDLE_INFORMATION,
    /** Windows: {@code SetStdHandle}, the slot a child inherits. */
    SET_STD_HANDLE,
    /** Windows: {@code GetFileType}. */
    GET_FILE_TYPE,
    /** Windows: {@code GetFileInformationByHandle}, a disk file's identity. */
    FILE_ID,
    /**
     * Windows: {@code CreateJobObjectW}, {@code SetInformationJobObject} and
     * {@code AssignProcessToJobObject}, the job that ties the process' children to it.
     */
    JOB_OBJECT
}
