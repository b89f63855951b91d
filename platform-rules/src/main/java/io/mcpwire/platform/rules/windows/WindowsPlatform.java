package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.rules.BoundPlatform;
import io.mcpwire.platform.rules.NativeBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules of a Windows provider, over a {@link Win32} binding: the Universal C Runtime's
 * descriptors ({@code _dup}, {@code _dup2}, {@code _close}, {@code _open("NUL")},
 * {@code _get_osfhandle}) and the Win32 standard handles ({@code SetStdHandle}).
 *
 * <p>Both layers are rebound because they are separate: C code and the JVM's native libraries use
 * the C runtime's table, while a child process inherits the Win32 standard-handle slots. The
 * private duplicate is a {@code _dup} then made not inheritable, refused when it lands on 0, 1 or 2. The JVM's own {@code System.in}/{@code
 * System.out} keep the handles captured at start-up, so the provider offers
 * {@link StandardHandleDuties} (it is its own) and the engine swaps those streams for the session;
 * those handle values, which a Java child started with {@code inheritIO()} gets, are made to name
 * what the descriptors name after every move ({@link StartupHandles}).
 *
 * <p>Calls on fd 0 to 2 that can wait behind another thread's I/O (a query, which waits for the
 * file object's lock; {@code _dup}, {@code _dup2}, {@code _close}, which wait for the C runtime's
 * lock of the descriptor) run on a thread of their own with a bounded wait ({@link Lanes},
 * {@link Patience}); a move runs there whole, pinned to one processor and holding the JDK's
 * child-start monitor ({@link #moveStandard}). What is kept per descriptor table rather than per
 * instance is {@link TableState}'s. 64-bit Windows only.
 */
public abstract class WindowsPlatform extends BoundPlatform<Win32> implements StandardHandleDuties {
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

    /** What a move's follow had to say, logged once the move has let go of the child-start monitor. */
    private static final ThreadLocal<List<String>> MOVE_NOTES = new ThreadLocal<>();

    private final DescriptorTable table;
    private final TableState state;

    /**
     * A provider over {@code binding}, waiting {@link Patience#DEFAULT} for calls that can wait.
     *
     * @param table the table the binding acts on: the process's, or, over mocks, one of their own
     */
    protected WindowsPlatform(NativeBinding<Win32> binding, DescriptorTable table) {
        this(binding, table, Patience.DEFAULT);
    }

    /**
     * A provider over {@code binding}; {@code patience} says how long a call that can wait behind
     * another thread's I/O is waited for (the first provider of a table gives it for the table).
     */
    protected WindowsPlatform(NativeBinding<Win32> binding, DescriptorTable table, Patience patience) {
        super(binding);
        this.table = table;
        this.state = TableState.of(table, patience);
    }

    /** The binding, once the JVM's start-up handle values have been read: before anything moves a descriptor. */
    private Win32 boundFirstSeen() throws DescriptorException {
        Win32 w = bound();
        state.startupHandles.capture(w);
        return w;
    }

    /** This provider itself: {@code FileDescriptor.in/out/err} keep the handles the JVM captured at start-up. */
    @Override
    public Optional<StandardHandleDuties> standardHandleDuties() {
        return Optional.of(this);
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
     * the latter asks {@code GetFileType}, which waits for the file object's lock that a thread of
     * the application's blocked in {@code System.in.read()} holds. {@code _dup} waits only for the C
     * runtime's lock of fd, which a native {@code _read}/{@code _write} holds: on fd 0 to 2 it is
     * made on fd's lane with a bounded wait. Its duplicate is inheritable until the second call, so
     * both are made holding the JDK's child-start monitor: no Java child starts in between (a native
     * one, {@code system()} or {@code _spawn}, still can).
     */
    private int duplicateUninherited(Win32 w, int fd, String op) throws DescriptorException {
        if (fd > STDERR) {
            synchronized (w.childStartLock()) { // no C runtime lock of this provider's own descriptors is held for long
                return CrtCalls.dupUninherited(w, fd, op);
            }
        }
        return state.lanes.run(fd, "_dup(" + fd + ")", fd, w.childStartLock(), () -> StartupDuplicates.notOnAStartupValue(state, w, fd, op));
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
            throw CrtCalls.crtError(w, "_pipe(" + PIPE_SIZE + ", _O_BINARY|_O_NOINHERIT)", -1);
        }
        int read = -1;
        try {
            read = aboveStandard(w, ends[0]);
            return new PipeEnds(read, aboveStandard(w, ends[1]));
        } catch (DescriptorException e) {
            if (read >= 0) {
                w.close(read); // the write end was on 0 to 2 and its move closed it already
            } else {
                w.close(ends[1]);
            }
            throw e;
        }
    }

    /** {@code fd}, or a duplicate of it above the standard range, {@code fd} then closed. */
    private int aboveStandard(Win32 w, int fd) throws DescriptorException {
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

    /** {@code _dup2}; onto fd 0 to 2, on the target's lane with a bounded wait (it takes the C runtime's lock of both). */
    @Override
    public void duplicateOnto(int source, int target) throws DescriptorException {
        Win32 w = boundFirstSeen();
        if (target >= STDIN && target <= STDERR) {
            state.lanes.run(target, "_dup2(" + source + ", " + target + ")", target, () -> {
                CrtCalls.dup2(w, source, target);
                return null;
            });
        } else {
            CrtCalls.dup2(w, source, target);
        }
    }

    @Override
    public int openNullDevice(Access access) throws DescriptorException {
        Win32 w = bound();
        int fd = w.open("NUL", (access == Access.READ ? O_RDONLY : O_WRONLY) | O_BINARY | O_NOINHERIT);
        if (fd < 0) {
            throw CrtCalls.crtError(w, "_open(\"NUL\", " + access + ")", -1);
        }
        return fd;
    }

    @Override
    public int openAppend(String path) throws DescriptorException {
        Win32 w = bound();
        int fd = w.wopen(path, O_WRONLY | O_APPEND | O_CREAT | O_BINARY | O_NOINHERIT, S_IREAD_IWRITE);
        if (fd < 0) {
            throw CrtCalls.crtError(w, "_wopen(\"" + path + "\", _O_WRONLY|_O_APPEND|_O_CREAT)", -1);
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

    /** {@code _close}; of fd 0 to 2, on fd's lane with a bounded wait. A late step may still close what it opened (fd 3 and up). */
    @Override
    public void close(int fd) throws DescriptorException {
        Win32 w = boundFirstSeen();
        if (fd >= STDIN && fd <= STDERR) {
            state.lanes.run(fd, "_close(" + fd + ")", fd, () -> {
                Lanes.refuseIfAbandoned("_close(" + fd + ")", fd);
                CrtCalls.closeNow(w, fd);
                return null;
            });
        } else {
            CrtCalls.closeNow(w, fd);
        }
    }

    /**
     * Runs the move on fd's lane, pinned to the processor it runs on, with the JDK's child-start
     * monitor held for it ({@link Lanes}): the value {@code _dup2} frees goes on that processor's free list and the
     * take-back, on the same thread, asks that list next; no Java child starts between the free and
     * the take-back. What the follow has to say is logged after, so that no log line (which may
     * write a stderr nobody reads) is written while the monitor is held. A move that waits too long (a
     * native thread holds fd's C runtime lock) is given up on: its outcome is unknown.
     */
    @Override
    public void moveStandard(int fd, StandardMove move) throws DescriptorException {
        Win32 w = standard(fd, "moveStandard(" + fd + ")");
        List<String> notes = new ArrayList<>();
        try {
            state.lanes.run(fd, "moving fd " + fd, fd, w.childStartLock(), () -> {
                MOVE_NOTES.set(notes);
                long pinned = w.pinToCurrentProcessor();
                try {
                    notes.addAll(state.startupHandles.retryMissed(w)); // a free start-up value, before _dup2's own duplicate takes it
                    move.run();
                } finally {
                    w.unpin(pinned);
                    MOVE_NOTES.remove();
                }
                return null;
            });
        } finally {
            synchronized (notes) {
                notes.forEach(n -> WindowsLog.LOG.log(System.Logger.Level.WARNING, n));
            }
        }
    }

    /** Points the slot at fd's handle ({@code SetStdHandle}; a console program's C runtime has done so already). */
    @Override
    public void rebindStandardHandle(int fd) throws DescriptorException {
        Win32 w = standard(fd, "rebindStandardHandle(" + fd + ")");
        Lanes.refuseIfAbandoned("SetStdHandle(" + STD_NAMES[fd] + ")", fd);
        long handle = CrtCalls.osHandle(w, fd, "rebindStandardHandle(" + fd + ")");
        if (!w.setStdHandle(STD_SLOTS[fd], handle)) {
            throw win32Error(w, "SetStdHandle(" + STD_NAMES[fd] + ")", fd);
        }
    }

    /**
     * Points the JVM's start-up handle value for fd at fd's file ({@link StartupHandles}, best
     * effort, logged: inside a move once it has let go of the child-start monitor).
     */
    @Override
    public void followStartupHandle(int fd) {
        if (Lanes.abandoned()) {
            return;
        }
        try {
            List<String> notes = state.startupHandles.follow(standard(fd, "followStartupHandle(" + fd + ")"), fd);
            List<String> inMove = MOVE_NOTES.get();
            if (inMove != null) {
                synchronized (inMove) {
                    inMove.addAll(notes);
                }
            } else {
                notes.forEach(n -> WindowsLog.LOG.log(System.Logger.Level.WARNING, n));
            }
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
        if (fd != STDIN || privateFd < 0 || Lanes.abandoned()) {
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

    /** The binding, for an operation on fd 0 to 2 alone. */
    private Win32 standard(int fd, String call) throws DescriptorException {
        if (fd < STDIN || fd > STDERR) {
            throw new DescriptorException(call, fd, 0, "not a standard descriptor");
        }
        return boundFirstSeen();
    }

    /** What fd's file is; a pipe that can stall when asking would wait behind another thread's I/O ({@link Identities}). */
    @Override
    public FileIdentity identity(int fd) throws DescriptorException {
        Win32 w = bound();
        long handle = CrtCalls.osHandle(w, fd, "identity(" + fd + ")");
        return Identities.of(w, state, fd, handle);
    }

    /**
     * Compares the kernel objects behind both handles ({@code CompareObjectHandles}); where that
     * call is missing (before Windows 10 1607) it answers "same", so that stray output goes to the
     * null device rather than risk the wire.
     */
    @Override
    public boolean sameFile(int a, int b) throws DescriptorException {
        Win32 w = bound();
        long ha = CrtCalls.osHandle(w, a, "sameFile(" + a + ", " + b + ")");
        long hb = CrtCalls.osHandle(w, b, "sameFile(" + a + ", " + b + ")");
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
        return new HandleStream(w, fd, CrtCalls.osHandle(w, fd, "open(" + fd + ")"), state.pendingIo);
    }

    /**
     * A job object with {@code JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE}, this process in it, its handle
     * held until the process ends: every process started from now on ends with this one, killed
     * included, unless it was started with {@code CREATE_BREAKAWAY_FROM_JOB}, which detaches it
     * ({@code JOB_OBJECT_LIMIT_BREAKAWAY_OK}). Made once per process.
     */
    @Override
    public boolean tieChildrenToProcess() throws DescriptorException {
        return state.childrenJob.tie(bound());
    }

    /**
     * A wait on {@code SYNCHRONIZE} process handles and an event ({@link WindowsExits}), which binds
     * when a wait opens; a binding that does not make those calls refuses it, naming the call.
     */
    @Override
    public Optional<ProcessExits> processExits() {
        return Optional.of(exitsOverBinding("WaitForMultipleObjects", ExitsWait.INSTANCE));
    }

    static DescriptorException win32Error(Win32 w, String op, int fd) {
        int code = w.lastError();
        return new DescriptorException(op, fd, code, WindowsErrors.win32(code));
    }

    /** The wait over the bound Win32 calls: a constant, not a lambda, since every transport asks for one as it is built. */
    private enum ExitsWait implements ExitsOver<Win32> {
        INSTANCE;

        @Override
        public ProcessExits.Wait watch(Win32 w, long... pids) throws DescriptorException {
            return new WindowsExits(w).watch(pids);
        }
    }
}
