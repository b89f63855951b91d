package io.mcpwire.platform.windows.jna;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;

/**
 * The Universal C Runtime ({@code ucrtbase.dll}), whose descriptor table the JVM and every
 * UCRT-linked library of the process share. Handles ({@code intptr_t}) are passed as 64-bit
 * {@code long}s: the provider runs on 64-bit Windows only.
 */
public interface Ucrt extends Library {
    /** {@code int _dup(int fd)}: a new descriptor on an inheritable duplicate of fd's handle, or -1 and errno. */
    int _dup(int fd);

    /** {@code int _pipe(int *fds, unsigned size, int textmode)}: 0, or -1 and errno. */
    int _pipe(int[] fds, int size, int textmode);

    /** {@code int _dup2(int fd1, int fd2)}: 0 on success, -1 and errno on failure. */
    int _dup2(int source, int target);

    /** {@code int _close(int fd)}. */
    int _close(int fd);

    /** {@code int _open(const char *filename, int oflag)}: no permission argument, so none is passed. */
    int _open(String path, int flags);

    /** {@code int _wopen(const wchar_t *filename, int oflag, int pmode)}: a wide path, so any file name works. */
    int _wopen(WString path, int flags, int mode);

    /** {@code intptr_t _get_osfhandle(int fd)}: -1 when fd is not open. */
    long _get_osfhandle(int fd);

    /** {@code int _open_osfhandle(intptr_t osfhandle, int flags)}: a new descriptor that owns the handle. */
    int _open_osfhandle(long handle, int flags);

    /**
     * {@code _invalid_parameter_handler}: what the C runtime calls when a function is given a bad
     * argument, such as a descriptor that is not open. With none installed (HotSpot installs none)
     * the release runtime ends the process at once (fast-fail 0xC0000409), without a report.
     */
    interface InvalidParameterHandler extends Callback {
        /** {@code void (const wchar_t *expression, const wchar_t *function, const wchar_t *file, unsigned line, uintptr_t reserved)}. */
        void invoke(Pointer expression, Pointer function, Pointer file, int line, Pointer reserved);
    }

    /** {@code _set_thread_local_invalid_parameter_handler(handler)}: returns the previous one. */
    Pointer _set_thread_local_invalid_parameter_handler(InvalidParameterHandler handler);

    /** The same, to put back a previous handler (a function pointer, or null for none). */
    Pointer _set_thread_local_invalid_parameter_handler(Pointer previous);

    /** {@code errno_t _get_errno(int *value)}: the calling thread's errno. */
    int _get_errno(IntByReference value);
}
