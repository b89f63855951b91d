package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import java.lang.System.Logger.Level;

/**
 * What a descriptor's file is, asked of the I/O manager ({@code GetFileType}, then
 * {@code GetConsoleMode} or {@code GetFileInformationByHandle}). Each of those waits, with no
 * timeout, for the lock of a synchronous file object that a blocked {@code ReadFile} or
 * {@code WriteFile} holds ({@code NtQueryVolumeInformationFile}, {@code NtQueryInformationFile};
 * the Windows Research Kernel's {@code qsfs.c} and {@code qsinfo.c}), of any thread or any child
 * that shares the file: a thread blocked writing a stderr nobody reads, the previous claim's
 * drain, HotSpot's own output. No call tells a pipe from a file without it. So a query on fd 0 to 2
 * is made on the query lane with a bounded wait ({@link Lanes}), and one on a file that this
 * table's streams have I/O pending on is not made at all; either way the answer is "a pipe that
 * can stall", the safe side for stray output (the drain, and fd 2 guarded), and a log line says so.
 */
final class Identities {
    private Identities() {
    }

    /** fd's identity, or a pipe that stalls when asking would wait (logged, naming fd, its handle and the call). */
    static FileIdentity of(Win32 w, TableState state, int fd, long handle) throws DescriptorException {
        if (state.pendingIo.pendingOn(w, handle)) {
            return stalls(fd, handle, "not asked: a ReadFile or WriteFile of this provider's is pending on its file, which "
                    + "holds the file object's lock");
        }
        if (fd > WindowsPlatform.STDERR) {
            return ask(w, fd, handle);
        }
        try {
            return state.lanes.run(Lanes.QUERY, "GetFileType(fd " + fd + ")", fd, () -> ask(w, fd, handle));
        } catch (DescriptorException e) {
            if (e.errorCode() != 0) {
                throw e; // the query answered: an error of its own
            }
            return stalls(fd, handle, e.errorText());
        }
    }

    private static FileIdentity stalls(int fd, long handle, String why) {
        WindowsLog.LOG.log(Level.WARNING, "fd {0} (handle 0x{1}): GetFileType {2}; a thread or a child is blocked writing or "
                + "reading that pipe, so it is taken for a pipe that can stall", fd, Long.toHexString(handle), why);
        return new FileIdentity(0, handle, FileIdentity.Kind.PIPE, true);
    }

    private static FileIdentity ask(Win32 w, int fd, long handle) throws DescriptorException {
        // The access of a Windows handle is not queried: standard handles are taken as writable.
        int type = w.getFileType(handle);
        switch (type) {
            case WindowsPlatform.FILE_TYPE_CHAR:
                return new FileIdentity(0, handle, w.isConsole(handle) ? FileIdentity.Kind.TERMINAL : FileIdentity.Kind.NULL_DEVICE, true);
            case WindowsPlatform.FILE_TYPE_DISK: {
                long[] id = w.fileId(handle);
                if (id == null) {
                    throw WindowsPlatform.win32Error(w, "GetFileInformationByHandle(fd " + fd + ")", fd);
                }
                return new FileIdentity(id[0], id[1], FileIdentity.Kind.FILE, true);
            }
            case WindowsPlatform.FILE_TYPE_PIPE:
                return new FileIdentity(0, handle, FileIdentity.Kind.PIPE, true);
            default:
                // FILE_TYPE_UNKNOWN: the call failed when GetLastError says so, else a device of another kind.
                if (type == WindowsPlatform.FILE_TYPE_UNKNOWN && w.lastError() != 0) {
                    throw WindowsPlatform.win32Error(w, "GetFileType(fd " + fd + ")", fd);
                }
                return new FileIdentity(0, handle, FileIdentity.Kind.OTHER, true);
        }
    }
}
