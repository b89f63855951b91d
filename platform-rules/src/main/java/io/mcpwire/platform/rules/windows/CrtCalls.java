package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;

/** The C runtime calls of the Windows rules, as they are made once on the right thread, and their errors. */
final class CrtCalls {
    private CrtCalls() {
    }

    static int dupUninherited(Win32 w, int fd, String op) throws DescriptorException {
        osHandle(w, fd, op);
        int dup = w.dup(fd); // the caller holds the child-start monitor, or has it held for this call
        if (dup < 0) {
            throw crtError(w, "_dup(" + fd + ")", fd);
        }
        if (!w.setInheritable(w.getOsfHandle(dup), false)) {
            DescriptorException e = WindowsPlatform.win32Error(w, "SetHandleInformation(fd " + dup + ", not inherited)", fd);
            w.close(dup);
            throw e;
        }
        if (Lanes.abandoned()) {
            w.close(dup); // made too late: the claim went on without it
            Lanes.refuseIfAbandoned("_dup(" + fd + ")", fd);
        }
        return dup;
    }

    static void dup2(Win32 w, int source, int target) throws DescriptorException {
        Lanes.refuseIfAbandoned("_dup2(" + source + ", " + target + ")", target);
        if (w.dup2(source, target) != 0) {
            // The Universal C Runtime may have closed the target before failing: said, never hidden.
            DescriptorException e = crtError(w, "_dup2(" + source + ", " + target + ")", target);
            throw new DescriptorException(e.operation(), target, e.errorCode(),
                    e.errorText() + "; fd " + target + " may have been closed before the failure");
        }
    }

    static void closeNow(Win32 w, int fd) throws DescriptorException {
        if (w.close(fd) != 0) {
            throw crtError(w, "_close(" + fd + ")", fd);
        }
    }

    static long osHandle(Win32 w, int fd, String op) throws DescriptorException {
        long handle = w.getOsfHandle(fd);
        if (handle == -1 || handle == -2) { // not open / open but with no OS handle
            throw new DescriptorException(op, fd, WindowsErrors.EBADF, "_get_osfhandle(" + fd + "): "
                    + WindowsErrors.errno(WindowsErrors.EBADF));
        }
        return handle;
    }

    static DescriptorException crtError(Win32 w, String op, int fd) {
        int errno = w.crtErrno();
        return new DescriptorException(op, fd, errno, WindowsErrors.errno(errno));
    }
}
