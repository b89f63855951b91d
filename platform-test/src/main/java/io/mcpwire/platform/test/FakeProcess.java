package io.mcpwire.platform.test;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardOrigin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A scriptable, in-memory model of one process's descriptor table, usable as a
 * {@link PlatformDescriptors} provider in tests.
 *
 * <p>It behaves like a POSIX table: descriptors are allocated lowest-free-first (so a closed
 * fd 2 is reused), open files are shared and reference-counted, a pipe reports end of input once
 * every write end is closed, and a write to a pipe without readers fails with {@code EPIPE}.
 * At start fd 0 is the read end of a pipe from the {@link #client() client}, fd 1 the write end
 * of a pipe to it, and fd 2 a sink that stands for the client's log ({@link StderrMode}).
 * It also models the OS standard-handle slots that {@code rebindStandardHandle} sets (what a
 * Windows child inherits) and, in {@link Builder#windowsStyle() Windows style}, a JVM whose
 * {@code System.in}/{@code System.out} do not follow the descriptors.
 *
 * <p>For tests of failure handling it offers {@link #faults() scripted failures}, a
 * {@link #calls() call log}, {@link #snapshot() snapshots} of the table to compare before and
 * after, and a check, run after every call, that the wire is still reachable: some descriptor
 * still refers to each of the two wire files ({@link #wireViolations()}).
 *
 * <p>It is never chosen automatically: select it by passing it to the claim or transport
 * builder, or with {@code -Dmcpwire.platform=fake}, which selects {@link #shared()}.
 * Thread-safe.
 */
public final class FakeProcess implements PlatformDescriptors {

    /** The size of the fake descriptor table, a common default limit of open descriptors. */
    public static final int TABLE_SIZE = 1024;

    /** What the JVM's own file on a descriptor closed at start holds: not JSON-RPC. */
    private static final byte[] MODULE_IMAGE = "JIMAGE\u0000\u0001 the JVM's module image\n".getBytes(StandardCharsets.UTF_8);

    private static volatile FakeProcess shared;

    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();

    private final String name;
    private final boolean followsDescriptors;
    private final FakeTable table = new FakeTable();
    private final DescriptorTable descriptorTable;
    private final Map<String, ByteArrayOutputStream> files = new HashMap<>();
    private final List<Call> calls = new ArrayList<>();
    private final Faults faults = new Faults(lock);
    private final List<String> violations = new ArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    private final FakeFile wireIn;
    private final FakeFile wireOut;
    private final FakeClient client;
    private long nextId = 10;
    private boolean wireLost;

    private FakeProcess(Builder b) {
        descriptorTable = DescriptorTable.create("the descriptor table of fake " + b.name);
        this.name = b.name;
        this.followsDescriptors = !b.windowsStyle;
        FileIdentity.Kind wireKind = b.sockets ? FileIdentity.Kind.SOCKET : FileIdentity.Kind.PIPE;
        String wireName = b.sockets ? "socket" : "pipe";
        Pipe toServer = new Pipe("client->server " + wireName, nextId++, Long.MAX_VALUE);
        Pipe toClient = new Pipe("server->client " + wireName, nextId++, b.pipeCapacity);
        toServer.writers = 1; // the client's end
        toClient.readers = 1;

        wireIn = b.stdinContent != null
                ? FakeFile.file(nextId++, "stdin file", b.stdinContent)
                : FakeFile.pipeEnd(nextId++, toServer, true, wireKind);
        if (b.stderr == StderrMode.TERMINAL_WITH_STDOUT) {
            wireOut = FakeFile.sink(nextId++, nextId++, "terminal", FileIdentity.Kind.TERMINAL, terminal);
        } else {
            wireOut = FakeFile.pipeEnd(nextId++, toClient, false, wireKind);
        }
        for (int fd = 0; fd < 2; fd++) {
            if (b.closedAtStart[fd]) {
                // As a JVM does: the parent gave nothing, so its module image landed here.
                table.installOwn(fd, FakeFile.file(nextId++, "lib/modules (the JVM's own)", MODULE_IMAGE));
            } else {
                table.install(fd, fd == 0 ? wireIn : wireOut, false);
            }
        }
        switch (b.stderr) {
            case SINK -> table.install(2, FakeFile.sink(nextId++, nextId++, "stderr", FileIdentity.Kind.PIPE, stderr), false);
            case SAME_AS_STDOUT -> table.install(2, wireOut, false);
            case READ_ONLY_FILE -> table.installOwn(2, FakeFile.file(nextId++, "lib/modules", MODULE_IMAGE));
            // A second open of the same terminal: another open file, the same device and inode.
            case TERMINAL_WITH_STDOUT -> table.install(2,
                    FakeFile.sink(nextId++, wireOut.inode, "terminal", FileIdentity.Kind.TERMINAL, terminal), false);
            case CLOSED -> { }
        }
        for (int fd = 0; fd < 3; fd++) {
            table.rebind(fd);
        }
        client = new FakeClient(this, toServer, toClient);
    }

    /** A builder for a fake process; see its options. */
    public static Builder builder() {
        return new Builder();
    }

    /** A fake process with pipes on fd 0 and 1 and a stderr sink on fd 2. */
    public static FakeProcess withPipes() {
        return builder().build();
    }

    /** The process-wide fake that {@code -Dmcpwire.platform=fake} selects. */
    public static FakeProcess shared() {
        FakeProcess s = shared;
        if (s == null) {
            synchronized (FakeProcess.class) {
                if (shared == null) {
                    shared = withPipes();
                }
                s = shared;
            }
        }
        return s;
    }

    /** Replaces {@link #shared()} with {@code process}, for a fresh table per test. */
    public static void setShared(FakeProcess process) {
        synchronized (FakeProcess.class) {
            shared = process;
        }
    }

    // ------------------------------------------------------------------ the provider

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isSupported() {
        return true;
    }

    @Override
    public String unavailabilityCause() {
        return null;
    }

    /** Negative: the fake is chosen only by name or explicitly, never automatically. */
    @Override
    public int priority() {
        return -100;
    }

    @Override
    public boolean jvmStreamsFollowDescriptors() {
        return followsDescriptors;
    }

    /** This fake's own table: claims on it never meet claims on the real process or other fakes. */
    @Override
    public DescriptorTable descriptorTable() {
        return descriptorTable;
    }

    @Override
    public int duplicateAboveStandard(int fd) throws DescriptorException {
        return call(Op.DUP_ABOVE_STANDARD, fd, -1, null, c -> allocate(open(c, fd), 3, c));
    }

    @Override
    public int duplicate(int fd) throws DescriptorException {
        return call(Op.DUP, fd, -1, null, c -> allocate(open(c, fd), 0, c));
    }

    @Override
    public void duplicateOnto(int source, int target) throws DescriptorException {
        call(Op.DUP2, target, source, null, c -> {
            FakeFile file = open(c, source);
            checkRange(c, target);
            if (source != target) {
                table.close(target);
                table.install(target, file, false); // dup2 clears close-on-exec on the target
            }
            return target;
        });
    }

    @Override
    public int openNullDevice(Access access) throws DescriptorException {
        return call(Op.OPEN_NULL, -1, -1, access, c -> allocate(
                FakeFile.nullDevice(nextId++, "null device (" + access.name().toLowerCase() + ")"), 0, c));
    }

    @Override
    public int openAppend(String path) throws DescriptorException {
        return call(Op.OPEN_APPEND, -1, -1, null, c -> allocate(
                FakeFile.sink(nextId++, nextId++, "file " + path, FileIdentity.Kind.FILE,
                        files.computeIfAbsent(path, k -> new ByteArrayOutputStream())), 0, c));
    }

    /**
     * A descriptor the parent left closed and the JVM filled with its own file is
     * {@link StandardOrigin#PROCESS_OWN} while that file is there; a closed one is
     * {@link StandardOrigin#CLOSED}; any other is inherited.
     */
    @Override
    public StandardOrigin standardOrigin(int fd) throws DescriptorException {
        return call(Op.ORIGIN, fd, -1, null, c -> {
            checkRange(c, fd);
            return table.origin(fd);
        });
    }

    @Override
    public void close(int fd) throws DescriptorException {
        call(Op.CLOSE, fd, -1, null, c -> {
            open(c, fd);
            table.close(fd);
            return 0;
        });
    }

    @Override
    public void rebindStandardHandle(int fd) throws DescriptorException {
        call(Op.REBIND, fd, -1, null, c -> {
            if (fd < 0 || fd > 2) {
                throw error(c, FakeErrors.EBADF, "EBADF (not a standard descriptor)");
            }
            open(c, fd);
            table.rebind(fd);
            return 0;
        });
    }

    @Override
    public FileIdentity identity(int fd) throws DescriptorException {
        return call(Op.IDENTITY, fd, -1, null, c -> open(c, fd).identity());
    }

    @Override
    public DescriptorStream open(int fd) throws DescriptorException {
        call(Op.OPEN_STREAM, fd, -1, null, c -> 0);
        return new FakeStream(this, fd);
    }

    /**
     * Makes a pipe inside the table, as {@code pipe(2)} does: two new descriptors, the lowest free
     * from 3 up, close-on-exec, on a pipe that holds 64 KiB. Not a platform call: nothing is logged.
     *
     * @return {read end, write end}
     * @throws DescriptorException with {@code EMFILE} when the table is full
     */
    public int[] pipe() throws DescriptorException {
        int[] ends = locked(() -> {
            Pipe p = new Pipe("pipe " + nextId, nextId++, 64 * 1024);
            int r = table.allocate(FakeFile.pipeEnd(nextId++, p, true, FileIdentity.Kind.PIPE), 3);
            int w = r < 0 ? -1 : table.allocate(FakeFile.pipeEnd(nextId++, p, false, FileIdentity.Kind.PIPE), 3);
            if (w < 0) {
                table.close(r);
            }
            return new int[] {r, w};
        });
        if (ends[1] < 0) {
            throw new DescriptorException("pipe()", -1, FakeErrors.EMFILE, "EMFILE (Too many open files)");
        }
        return ends;
    }

    /**
     * Ends the process as the OS does: every descriptor closes, so the client reads end of output
     * once it has read what was written. Not a platform call: nothing is logged.
     */
    void exitProcess() {
        locked(() -> {
            for (int fd = 0; fd < TABLE_SIZE; fd++) {
                table.close(fd);
            }
            changed.signalAll();
            return null;
        });
    }

    /** Marks {@code s} woken and wakes every wait of the table. */
    void wake(FakeStream s) {
        locked(() -> {
            s.woken = true;
            changed.signalAll();
            return null;
        });
    }

    // ------------------------------------------------------------------ inspection

    /** The client's side of the two wire pipes. */
    public FakeClient client() {
        return client;
    }

    /** The scripted failures of this process. */
    public Faults faults() {
        return faults;
    }

    /** Every platform call so far, in order. */
    public List<Call> calls() {
        return locked(() -> List.copyOf(calls));
    }

    /** How many platform calls were made so far. */
    public int callCount() {
        return locked(calls::size);
    }

    /** The table as it is now. */
    public TableSnapshot snapshot() {
        return locked(table::snapshot);
    }

    /** What {@code fd} refers to, for example {@code "null device (read)"}, or {@code "closed"}. */
    public String describe(int fd) {
        return locked(() -> table.describe(fd));
    }

    /** Whether fd 0 or fd 1 refers to its wire file (the one it had at start). */
    public boolean isOnWire(int fd) {
        return (fd == 0 || fd == 1) && refersToWireOf(fd, fd);
    }

    /** Whether {@code fd} refers to the same wire file as fd {@code standardFd} had at start. */
    public boolean refersToWireOf(int fd, int standardFd) {
        return locked(() -> table.get(fd) != null && table.get(fd) == (standardFd == 0 ? wireIn : wireOut));
    }

    /** Whether {@code fd} is open and close-on-exec (not inherited by a child). */
    public boolean isCloseOnExec(int fd) {
        return locked(() -> table.isCloseOnExec(fd));
    }

    /** What the OS standard-handle slot {@code fd} (0..2) refers to, or {@code "closed"}. */
    public String stdHandle(int fd) {
        return locked(() -> table.describeSlot(fd));
    }

    /**
     * What a child process started with inherited stdio would get as its fd 0, 1 and 2: the
     * standard-handle slots in Windows style, else the descriptors themselves.
     */
    public List<String> childStdio() {
        return locked(() -> table.childStdio(followsDescriptors));
    }

    /** The descriptors a child process would inherit (open and not close-on-exec). */
    public List<Integer> inheritedDescriptors() {
        return locked(table::inherited);
    }

    /** Everything written to the stderr sink so far. */
    public String stderrText() {
        return locked(() -> stderr.toString(StandardCharsets.UTF_8));
    }

    /** Everything appended so far to the file {@code path} opened with {@link #openAppend}; empty when none. */
    public String fileText(String path) {
        return locked(() -> files.containsKey(path) ? files.get(path).toString(StandardCharsets.UTF_8) : "");
    }

    /** Everything written to the terminal so far ({@link StderrMode#TERMINAL_WITH_STDOUT}). */
    public String terminalText() {
        return locked(() -> terminal.toString(StandardCharsets.UTF_8));
    }

    /**
     * Each moment the wire became unreachable (no descriptor referred to one of the two wire
     * files), naming the call that caused it; empty when the wire was always reachable.
     */
    public List<String> wireViolations() {
        return locked(() -> List.copyOf(violations));
    }

    /** Throws an {@link AssertionError} naming the first call after which the wire was unreachable. */
    public void assertWireAlwaysReachable() {
        List<String> v = wireViolations();
        if (!v.isEmpty()) {
            throw new AssertionError(v.get(0) + (v.size() > 1 ? " (and " + (v.size() - 1) + " more)" : ""));
        }
    }

    @Override
    public String toString() {
        return "FakeProcess[" + name + ", " + snapshot() + "]";
    }

    private <T> T locked(java.util.function.Supplier<T> query) {
        lock.lock();
        try {
            return query.get();
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ the table

    /** What a call does once logged and past the scripted faults; it runs under the lock. */
    @FunctionalInterface
    interface Action<T> {
        T run(Call call) throws IOException;
    }

    /** Logs the call, applies a scripted failure if one fires, runs it, then checks the wire. */
    private <T> T call(Op op, int fd, int source, Access access, Action<T> action) throws DescriptorException {
        try {
            return callIo(op, fd, source, access, action);
        } catch (DescriptorException e) {
            throw e;
        } catch (IOException e) {
            throw new DescriptorException(op.name(), fd, 0, e.toString());
        }
    }

    <T> T callIo(Op op, int fd, int source, Access access, Action<T> action) throws IOException {
        lock.lock();
        try {
            Call c = new Call(calls.size() + 1, op, fd, source, access);
            calls.add(c);
            try {
                FaultRule fault = faults.match(c);
                if (fault != null) {
                    if ((op == Op.DUP2 && fault.destroysTarget()) || op == Op.CLOSE) {
                        // A failing close still frees the descriptor, as on Linux.
                        table.close(fd);
                    }
                    throw error(c, fault.errnoCode(), fault.errorText());
                }
                return action.run(c);
            } finally {
                checkWire(c);
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private void checkWire(Call c) {
        // A wire the parent never gave (closed at start) cannot be lost.
        boolean inLost = table.givenAtStart(0) && wireIn.refs == 0;
        boolean lost = inLost || (table.givenAtStart(1) && wireOut.refs == 0);
        if (lost && !wireLost) {
            String which = inLost ? "stdin wire (" + wireIn.label + ")" : "stdout wire (" + wireOut.label + ")";
            violations.add("after call " + c + ": the " + which + " is referred to by no descriptor");
        }
        wireLost = lost;
    }

    static DescriptorException error(Call c, int errno, String text) {
        return new DescriptorException(c.describe(), c.fd(), errno, text);
    }

    FakeFile open(Call c, int fd) throws DescriptorException {
        FakeFile f = table.get(fd);
        if (f == null) {
            throw error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
        }
        return f;
    }

    private void checkRange(Call c, int fd) throws DescriptorException {
        if (!FakeTable.inRange(fd)) {
            throw error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
        }
    }

    private int allocate(FakeFile file, int floor, Call c) throws DescriptorException {
        int fd = table.allocate(file, floor);
        if (fd < 0) {
            throw error(c, FakeErrors.EMFILE, "EMFILE (Too many open files)");
        }
        return fd;
    }

    /** Options for a {@link FakeProcess}. */
    public static final class Builder {
        private String name = "fake";
        private boolean sockets;
        private boolean windowsStyle;
        private StderrMode stderr = StderrMode.SINK;
        private long pipeCapacity = Long.MAX_VALUE;
        private byte[] stdinContent;
        private final boolean[] closedAtStart = new boolean[2];

        private Builder() {
        }

        /**
         * fd 0 or fd 1 was closed when the process started ({@code <&-}, {@code >&-}), so the
         * JVM's own module image sits there, read-only, as on a real JVM, and
         * {@link #standardOrigin} says {@link StandardOrigin#PROCESS_OWN}. The client's pipe for it
         * exists but no descriptor refers to it.
         */
        public Builder closedAtStart(int fd) {
            if (fd != 0 && fd != 1) {
                throw new IllegalArgumentException("fd 0 or 1 (fd 2: see stderr(StderrMode))");
            }
            this.closedAtStart[fd] = true;
            return this;
        }

        /** The provider name (default {@code "fake"}). */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** Socket pairs instead of pipes on fd 0 and 1, as Node-based MCP clients give. */
        public Builder sockets() {
            this.sockets = true;
            return this;
        }

        /** What fd 2 refers to (default {@link StderrMode#SINK}). */
        public Builder stderr(StderrMode mode) {
            this.stderr = mode;
            return this;
        }

        /**
         * A JVM whose {@code System.in}/{@code System.out} do not follow the descriptors, as on
         * Windows: the engine then swaps them for the session.
         */
        public Builder windowsStyle() {
            this.windowsStyle = true;
            return this;
        }

        /** Bounds the pipe to the client, so that a client that does not read blocks writers. */
        public Builder pipeCapacity(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("bytes < 1");
            }
            this.pipeCapacity = bytes;
            return this;
        }

        /** fd 0 is a regular file with this content instead of a pipe. */
        public Builder stdinContent(byte[] content) {
            this.stdinContent = content.clone();
            return this;
        }

        /** Builds the process. */
        public FakeProcess build() {
            return new FakeProcess(this);
        }
    }
}
