package io.mcpwire.platform.windows.jna;

import com.sun.jna.Library;
import com.sun.jna.ptr.IntByReference;

/**
 * The Universal C Runtime ({@code ucrtbase.dll}), whose descriptor table the JVM and every
 * UCRT-linked library of the process share. Handles ({@code intptr_t}) are passed as 64-bit
 * {@code long}s: the provider runs on 64-bit Windows only.
 */
public interface Ucrt extends Library {
    /** {@code int _dup2(int fd1, int fd2)}: 0 on success, -1 and errno on failure. */
    int _dup2(int source, int target);

    /** {@code int _close(int fd)}. */
    int _close(int fd);

    /** {@code int _open(const char *filename, int oflag)}: no permission argument, so none is passed. */
    int _open(String path, int flags);

    /** {@code intptr_t _get_osfhandle(int fd)}: -1 when fd is not open. */
    long _get_osfhandle(int fd);

    /** {@code int _open_osfhandle(intptr_t osfhandle, int flags)}: a new descriptor that owns the handle. */
    int _open_osfhandle(long handle, int flags);

    /** {@code errno_t _get_errno(int *value)}: the calling thread's errno. */
    int _get_errno(IntByReference value);
}
