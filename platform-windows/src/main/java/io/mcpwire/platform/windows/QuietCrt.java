package io.mcpwire.platform.windows;

import com.sun.jna.Pointer;
import io.mcpwire.platform.windows.jna.Ucrt;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Calls into the Universal C Runtime with its invalid-parameter handler suppressed on the calling
 * thread, so that a call on a descriptor that is not open fails with {@code EBADF} instead of
 * ending the process (the release runtime's default, with no handler installed, is a fast-fail).
 * The handler is thread-local, so other threads keep theirs; it is put back after each call.
 */
final class QuietCrt {
    /** Ignores the report: the function then returns its error value and sets errno, as documented. */
    private static final class Ignore implements Ucrt.InvalidParameterHandler {
        @Override
        public void invoke(Pointer expression, Pointer function, Pointer file, int line, Pointer reserved) {
        }
    }

    /** Kept reachable for the life of the class: the runtime holds only its native address. */
    private static final Ucrt.InvalidParameterHandler IGNORE = new Ignore();

    private QuietCrt() {
    }

    static int call(Ucrt ucrt, IntSupplier call) {
        return (int) callLong(ucrt, call::getAsInt);
    }

    static long callLong(Ucrt ucrt, LongSupplier call) {
        Pointer previous = ucrt._set_thread_local_invalid_parameter_handler(IGNORE);
        try {
            return call.getAsLong();
        } finally {
            ucrt._set_thread_local_invalid_parameter_handler(previous);
        }
    }

    /** {@code _get_osfhandle(fd)}: the OS handle, -1 when fd is not open, -2 when it is open without one. */
    static long osHandle(Ucrt ucrt, int fd) {
        return callLong(ucrt, () -> ucrt._get_osfhandle(fd));
    }
}
