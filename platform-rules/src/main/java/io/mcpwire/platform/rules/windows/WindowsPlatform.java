package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.rules.BoundPlatform;
import io.mcpwire.platform.rules.NativeBinding;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a Windows provider, over a {@link Win32} binding: the Universal C Runtime's
 * descriptors ({@code _dup2}, {@code _close}, {@code _open("NUL")}, {@code _get_osfhandle},
 * {@code _open_osfhandle}) and the Win32 standard handles ({@code SetStdHandle}).
 *
 * <p>Both layers are rebound because they are separate: C code and the JVM's native libraries use
 * the C runtime's table, while a child process inherits the Win32 standard-handle slots. The
 * private duplicate is a {@code _dup} then made not inheritable, refused when it lands on 0, 1 or 2. The JVM's own {@code System.in}/{@code
 * System.out} keep the handles captured at start-up, so {@link #jvmStreamsFollowDescriptors()} is
 * false and the engine swaps them for the session; those handle values, which a Java child started
 * with {@code inheritIO()} gets, are made to name what the descriptors name after every move
 * ({@link StartupHandles}). 64-bit Windows only.
 */
public abstract class WindowsPlatform extends BoundPlatform<Win32> {
    /** {@code _O_RDONLY}. */
    public static final int O_RDONLY = 0;
    /** {@code _O_WRONLY}. */
    public static final int O_WRONLY = 1;
    /** {@code _O_APPEND}. */
    public static final int O_APPEND = 0x8;
    /** {@code _O_NOINHERIT}. */
    public static final int O_NOINHERIT = 0x80;
    /** {@code _O_CREAT}. */
    public static final int O_CREAT = 0x100;
    /** {@code _S_IREAD | _S_IWRITE}. */
    public static final int S_IREAD_IWRITE = 0x100 | 0x80;
    /** {@code _O_BINARY}. */
    public static final int O_BINARY = 0x8000;
    /** {@code STD_INPUT_HANDLE}, {@code STD_OUTPUT_HANDLE}, {@code STD_ERROR_HANDLE}, by descriptor. */
    public static final int[] STD_SLOTS = {-10, -11, -12};
    /** {@code GetFileType}: unknown, or failed when {@code GetLastError()} says so. */
    public static final int FILE_TYPE_UNKNOWN = 0;
    /** {@code GetFileType}: a disk file. */
    public static final int FILE_TYPE_DISK = 1;
    /** {@code GetFileType}: a character device (a console, or NUL). */
    public static final int FILE_TYPE_CHAR = 2;
    /** {@code GetFileType}: a pipe or socket. */
    public static final int FILE_TYPE_PIPE = 3;
    /** The buffer of a pipe this provider makes: a POSIX pipe's, so that a burst of output fits in it. */
    public static final int PIPE_SIZE = 65_536;
    private static final String[] STD_NAMES = {"STD_INPUT_HANDLE", "STD_OUTPUT_HANDLE", "STD_ERROR_HANDLE"};

    private final DescriptorTable table;
    private final PendingReads pendingReads = new PendingReads();
    private final StartupHandles startupHandles = new StartupHandles();

    /**
     * A provider over {@code binding}.
     *
     * @param table the table the binding acts on: the process's, or, over mocks, one of their own
     */
    protected WindowsPlatform(NativeBinding<Win32> binding, DescriptorTable table) {
        super(binding);
        this.table = table;
    }


    /** The binding, once the JVM's start-up handle values have been read: before anything moves a descriptor. */
    private Win32 boundFirstSeen() throws DescriptorException {
        Win32 w = bound();
        startupHandles.capture(w);
        return w;
    }

    @Override
    public boolean jvmStreamsFollowDescriptors() {
        return false; // FileDescriptor.in/out keep the handles the JVM captured at start-up
    }

    @Override
    public DescriptorTable descriptorTable() {
        return table;
    }

    @Override
    public int duplicateAboveStandard(int fd) throws DescriptorException {
        Win32 w = boundFirstSeen();
        int dup = duplicateUninherited(w, fd, "duplicateAboveStandard(" + fd + ")");
        if (dup <= STDERR) {
            w.close(dup);
            throw new DescriptorException("duplicateAboveStandard(" + fd + ")", fd, 0,
                    "the duplicate landed on fd " + dup + ", a standard descriptor (closed it again)");
        }
        return dup;
    }

    @Override
    public int duplicate(int fd) throws DescriptorException {
        Win32 w = boundFirstSeen();
        return duplicateUninherited(w, fd, "duplicate(" + fd + ")");
    }

    /**
     * A duplicate of fd's OS handle on the lowest free C runtime descriptor, then made not
     * inheritable. {@code _dup} rather than {@code DuplicateHandle} and {@code _open_osfhandle}:
     * the latter asks {@code GetFileType}, which waits behind a read pending on the same pipe, and a
     * thread of the application's blocked in {@code System.in.read()} holds one that nothing here
     * can see. The price is a window of two calls in which the new handle is inheritable.
     */
    private static int duplicateUninherited(Win32 w, int fd, String op) throws DescriptorException {
        osHandle(w, fd, op);
        int dup = w.dup(fd);
        if (dup < 0) {
            throw crtError(w, "_dup(" + fd + ")", fd);
        }
        if (!w.setInheritable(w.getOsfHandle(dup), false)) {
            DescriptorException e = win32Error(w, "SetHandleInformation(fd " + dup + ", not inherited)", fd);
            w.close(dup);
            throw e;
        }
        return dup;
    }

    /**
     * {@code _pipe} with the size of a POSIX pipe, binary and not inherited; an end that landed on
     * fd 0, 1 or 2 (the C runtime had no descriptor there) is moved above them.
     */
    @Override
    public PipeEnds pipe() throws DescriptorException {
        Win32 w = boundFirstSeen();
        int[] ends = new int[2];
        if (w.pipe(ends, PIPE_SIZE, O_BINARY | O_NOINHERIT) != 0) {
            throw crtError(w, "_pipe(" + PIPE_SIZE + ", _O_BINARY|_O_NOINHERIT)", -1);
        }
        int read = -1;
        try {
            read = aboveStandard(w, ends[0]);
            return new PipeEnds(read, aboveStandard(w, ends[1]));
        } catch (DescriptorException e) {
            if (read >= 0) {
                w.close(read);
            }
            w.close(ends[1]);
            throw e;
        }
    }

    /** {@code fd}, or a duplicate of it above the standard range, {@code fd} then closed. */
    private static int aboveStandard(Win32 w, int fd) throws DescriptorException {
        List<Integer> standard = new ArrayList<>();
        int d = fd;
        try {
            while (d <= STDERR) {
                standard.add(d);
                d = duplicateUninherited(w, d, "pipe(): moving fd " + d + " above the standard range");
            }
        } finally {
            standard.forEach(w::close);
        }
        return d;
    }

    @Override
    public void duplicateOnto(int source, int target) throws DescriptorException {
        Win32 w = boundFirstSeen();
        if (w.dup2(source, target) != 0) {
            // The Universal C Runtime may have closed the target before failing: said, never hidden.
            DescriptorException e = crtError(w, "_dup2(" + source + ", " + target + ")", target);
            throw new DescriptorException(e.operation(), target, e.errorCode(),
                    e.errorText() + "; fd " + target + " may have been closed before the failure");
        }
    }

    @Override
    public int openNullDevice(Access access) throws DescriptorException {
        Win32 w = bound();
        int fd = w.open("NUL", (access == Access.READ ? O_RDONLY : O_WRONLY) | O_BINARY | O_NOINHERIT);
        if (fd < 0) {
            throw crtError(w, "_open(\"NUL\", " + access + ")", -1);
        }
        return fd;
    }

    @Override
    public int openAppend(String path) throws DescriptorException {
        Win32 w = bound();
        int fd = w.wopen(path, O_WRONLY | O_APPEND | O_CREAT | O_BINARY | O_NOINHERIT, S_IREAD_IWRITE);
        if (fd < 0) {
            throw crtError(w, "_wopen(\"" + path + "\", _O_WRONLY|_O_APPEND|_O_CREAT)", -1);
        }
        return fd;
    }

    /**
     * Closed when the C runtime has no OS handle on {@code fd} (a process started without that
     * stream has none there); the process's own when it has one but the Win32 standard slot, which
     * the parent fills, is empty; inherited otherwise.
     */
    @Override
    public StandardOrigin standardOrigin(int fd) throws DescriptorException {
        if (fd < STDIN || fd > STDERR) {
            throw new DescriptorException("standardOrigin(" + fd + ")", fd, 0, "not a standard descriptor");
        }
        Win32 w = boundFirstSeen();
        long handle = w.getOsfHandle(fd);
        if (handle == -1 || handle == -2) {
            return StandardOrigin.CLOSED;
        }
        long slot = w.getStdHandle(STD_SLOTS[fd]);
        return slot == 0 || slot == -1 ? StandardOrigin.PROCESS_OWN : StandardOrigin.INHERITED;
    }

    @Override
    public void close(int fd) throws DescriptorException {
        Win32 w = boundFirstSeen();
        if (w.close(fd) != 0) {
            throw crtError(w, "_close(" + fd + ")", fd);
        }
    }

    /**
     * Points the slot at fd's handle ({@code SetStdHandle}; a console program's C runtime has done
     * so already).
     */
    @Override
    public void rebindStandardHandle(int fd) throws DescriptorException {
        Win32 w = standard(fd, "rebindStandardHandle(" + fd + ")");
        long handle = osHandle(w, fd, "rebindStandardHandle(" + fd + ")");
        if (!w.setStdHandle(STD_SLOTS[fd], handle)) {
            throw win32Error(w, "SetStdHandle(" + STD_NAMES[fd] + ")", fd);
        }
    }

    /** Points the JVM's start-up handle value for fd at fd's file ({@link StartupHandles}, best effort, logged). */
    @Override
    public void followStartupHandle(int fd) {
        try {
            startupHandles.follow(standard(fd, "followStartupHandle(" + fd + ")"), fd);
        } catch (DescriptorException e) {
            WindowsLog.LOG.log(System.Logger.Level.WARNING, "the JVM''s start-up handle for fd {0} was not followed ({1})", fd, e.getMessage());
        }
    }

    /**
     * When fd 0 no longer names the file its private duplicate holds, cancels a read still pending
     * on that file (an application thread blocked in {@code System.in.read()} since before the
     * claim), so that it cannot take the client's bytes; read again, {@code System.in} finds the
     * diversion. {@code CancelIoEx} on the private duplicate cancels every read on the file object.
     */
    @Override
    public void cancelStrandedReads(int fd, int privateFd) {
        if (fd != STDIN || privateFd < 0) {
            return;
        }
        Win32 w;
        try {
            w = standard(fd, "cancelStrandedReads(" + fd + ", " + privateFd + ")");
        } catch (DescriptorException e) {
            return;
        }
        long fd0 = w.getOsfHandle(fd);
        long wire = w.getOsfHandle(privateFd);
        if (wire == -1 || wire == -2 || Boolean.TRUE.equals(w.compareObjectHandles(wire, fd0))) {
            return;
        }
        if (w.cancelIo(wire)) {
            WindowsLog.LOG.log(System.Logger.Level.WARNING, "a thread was blocked reading the stdin wire (System.in, since before "
                    + "the claim) when fd 0 was diverted; its read was cancelled (CancelIoEx) so that it cannot take the "
                    + "client''s requests, and reading System.in again gives end of input");
        }
    }

    /** The binding, for an operation on standard descriptor {@code fd} alone. */
    private Win32 standard(int fd, String call) throws DescriptorException {
        if (fd < STDIN || fd > STDERR) {
            throw new DescriptorException(call, fd, 0, "not a standard descriptor");
        }
        return boundFirstSeen();
    }

    /** Refused while a read is pending on fd's pipe: the queries would block behind it. */
    @Override
    public FileIdentity identity(int fd) throws DescriptorException {
        Win32 w = bound();
        long handle = osHandle(w, fd, "identity(" + fd + ")");
        return pendingReads.query(w, handle, fd, "identity(" + fd + ")", () -> identity(w, fd, handle));
    }

    private static FileIdentity identity(Win32 w, int fd, long handle) throws DescriptorException {
        // The access of a Windows handle is not queried: standard handles are taken as writable.
        int type = w.getFileType(handle);
        switch (type) {
            case FILE_TYPE_CHAR:
                return new FileIdentity(0, handle, w.isConsole(handle) ? FileIdentity.Kind.TERMINAL : FileIdentity.Kind.NULL_DEVICE, true);
            case FILE_TYPE_DISK: {
                long[] id = w.fileId(handle);
                if (id == null) {
                    throw win32Error(w, "GetFileInformationByHandle(fd " + fd + ")", fd);
                }
                return new FileIdentity(id[0], id[1], FileIdentity.Kind.FILE, true);
            }
            case FILE_TYPE_PIPE:
                return new FileIdentity(0, handle, FileIdentity.Kind.PIPE, true);
            default:
                // FILE_TYPE_UNKNOWN: the call failed when GetLastError says so, else a device of another kind.
                if (type == FILE_TYPE_UNKNOWN && w.lastError() != 0) {
                    throw win32Error(w, "GetFileType(fd " + fd + ")", fd);
                }
                return new FileIdentity(0, handle, FileIdentity.Kind.OTHER, true);
        }
    }

    /**
     * Compares the kernel objects behind both handles ({@code CompareObjectHandles}); where that
     * call is missing (before Windows 10 1607) it answers "same", so that stray output goes to the
     * null device rather than risk the wire.
     */
    @Override
    public boolean sameFile(int a, int b) throws DescriptorException {
        Win32 w = bound();
        long ha = osHandle(w, a, "sameFile(" + a + ", " + b + ")");
        long hb = osHandle(w, b, "sameFile(" + a + ", " + b + ")");
        Boolean same = w.compareObjectHandles(ha, hb);
        return same == null || same;
    }

    /** The OS handle behind fd, and the slot's; no query that a pending read could block. */
    @Override
    public String describe(int fd) {
        try {
            Win32 w = bound();
            long handle = w.getOsfHandle(fd);
            String own = handle == -1 ? "not open" : handle == -2 ? "open with no OS handle" : "handle 0x" + Long.toHexString(handle);
            return fd >= STDIN && fd <= STDERR ? own + ", " + STD_NAMES[fd] + " 0x" + Long.toHexString(w.getStdHandle(STD_SLOTS[fd])) : own;
        } catch (DescriptorException | RuntimeException e) {
            return "(cannot tell: " + e.getMessage() + ")";
        }
    }

    @Override
    public DescriptorStream open(int fd) throws DescriptorException {
        Win32 w = bound();
        return new HandleStream(w, fd, osHandle(w, fd, "open(" + fd + ")"), pendingReads);
    }

    private static long osHandle(Win32 w, int fd, String op) throws DescriptorException {
        long handle = w.getOsfHandle(fd);
        if (handle == -1 || handle == -2) { // not open / open but with no OS handle
            throw new DescriptorException(op, fd, WindowsErrors.EBADF, "_get_osfhandle(" + fd + "): "
                    + WindowsErrors.errno(WindowsErrors.EBADF));
        }
        return handle;
    }

    private static DescriptorException crtError(Win32 w, String op, int fd) {
        int errno = w.crtErrno();
        return new DescriptorException(op, fd, errno, WindowsErrors.errno(errno));
    }

    private static DescriptorException win32Error(Win32 w, String op, int fd) {
        int code = w.lastError();
        return new DescriptorException(op, fd, code, WindowsErrors.win32(code));
    }
}
