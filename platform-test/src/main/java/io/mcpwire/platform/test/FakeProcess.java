package io.mcpwire.platform.test;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.rules.windows.Win32;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * A scriptable, in-memory model of one process's descriptor table, usable as a
 * {@link PlatformDescriptors} provider in tests.
 *
 * <p>By default it behaves like a POSIX table: descriptors are allocated lowest-free-first (so a
 * closed fd 2 is reused), open files are shared and reference-counted, a pipe reports end of input
 * once every write end is closed, and a write to a pipe without readers fails with {@code EPIPE}.
 * At start fd 0 is the read end of a pipe from the {@link #client() client}, fd 1 the write end
 * of a pipe to it, and fd 2 a sink that stands for the client's log ({@link StderrMode}).
 * It also models the OS standard-handle slots that {@code rebindStandardHandle} sets (what a
 * Windows child inherits) and, in {@link Builder#detachedJvmStreams() Windows style}, a JVM whose
 * {@code System.in}/{@code System.out} do not follow the descriptors.
 *
 * <p>{@link Builder#windows() Built for Windows}, it models the Windows C runtime's descriptors
 * over Win32 handles instead, and {@link #windows()} is the provider to claim through: mcpwire's
 * own Windows rules over that model (see {@link Builder#windows()}).
 *
 * <p>For tests of failure handling it offers {@link #faults() scripted failures}, a
 * {@link #calls() call log}, {@link #snapshot() snapshots} of the table to compare before and
 * after, and a check, run after every call, that the wire is still reachable: some descriptor
 * still refers to each of the two wire files ({@link #wireViolations()}).
 *
 * <p>It is never chosen automatically: select it by passing it to the claim or transport
 * builder, or with {@code -Dmcpwire.platform=fake}, which selects {@link #shared()}.
 * Thread-safe. The class is the fake's POSIX face and its inspection API; the model itself is a
 * kernel shared by every face.
 */
public final class FakeProcess extends FakePosixDescriptors {

    /** The size of the fake descriptor table, a common default limit of open descriptors. */
    public static final int TABLE_SIZE = 1024;

    private static FakeProcess shared; // guarded by the class

    private final PlatformDescriptors windows;
    private final FakeWin32 win32;

    private FakeProcess(Builder b) {
        super(new FakeKernel(b));
        win32 = b.windows ? new FakeWin32(kernel, true) : null;
        windows = b.windows ? new FakeWindowsDescriptors(kernel, win32) : null;
    }

    /**
     * The Windows model's C runtime and Win32 calls, the binding that {@link #windows()} runs the
     * shared rules over, for a Windows provider's tests of its own binding layer.
     *
     * @throws IllegalStateException when this fake models POSIX descriptors
     */
    public Win32 windowsBinding() {
        return win32();
    }

    /** The Windows model's C runtime and Win32 calls, which {@link #windows()} runs its rules over. */
    FakeWin32 win32() {
        if (win32 == null) {
            throw new IllegalStateException("fake " + name() + " models POSIX descriptors: build it with windows()");
        }
        return win32;
    }

    /**
     * Whether the Windows model's process is in a job object that ends its children with it
     * ({@code PlatformDescriptors.tieChildrenToProcess}); false for a POSIX model, which has none.
     */
    public boolean childrenTiedToProcess() {
        return win32 != null && win32.assignedJob().isPresent();
    }

    /**
     * The processes that a wait for exits watches end now: every wait of this process's providers,
     * open or opened later, names the first process it watches.
     *
     * @throws IllegalStateException when the fake was built without {@link Builder#hostExits()}
     */
    public void endWatchedProcesses() {
        kernel.exits.orElseThrow(() -> new IllegalStateException("a fake built without hostExits() has no wait to end")).end();
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
    public static synchronized FakeProcess shared() {
        if (shared == null) {
            shared = withPipes();
        }
        return shared;
    }

    /** Replaces {@link #shared()} with {@code process}, for a fresh table per test. */
    public static synchronized void setShared(FakeProcess process) {
        shared = process;
    }

    /**
     * The provider to claim through when this process models Windows: the shared Windows rules
     * ({@code _dup2}, {@code _open_osfhandle}, {@code SetStdHandle}, {@code ReadFile} and the
     * rest) over the model, each call logged and open to scripted failures.
     *
     * @throws IllegalStateException when the process was not {@link Builder#windows() built for Windows}
     */
    public PlatformDescriptors windows() {
        if (windows == null) {
            throw new IllegalStateException("fake " + name() + " models POSIX descriptors: build it with windows()");
        }
        return windows;
    }

    /** The provider that claims this process as its OS would: {@link #windows()} when it models Windows, else this. */
    public PlatformDescriptors provider() {
        return windows != null ? windows : this;
    }

    /** Whether this process models the Windows C runtime over handles ({@link Builder#windows()}). */
    public boolean modelsWindows() {
        return windows != null;
    }

    /**
     * Makes a pipe inside the table, as {@code pipe(2)} does: two new descriptors, the lowest free
     * from 3 up, close-on-exec, on a pipe that holds 64 KiB; on Windows, two non-inheritable
     * handles on the lowest free descriptors. Not a platform call: nothing is logged.
     *
     * @return {read end, write end}
     * @throws DescriptorException with {@code EMFILE} when the table is full
     */
    public int[] makePipe() throws DescriptorException {
        int[] ends = locked(kernel::newPipe);
        if (ends[1] < 0) {
            throw new DescriptorException("pipe()", -1, FakeErrors.EMFILE, "EMFILE (Too many open files)");
        }
        return ends;
    }

    // ------------------------------------------------------------------ inspection

    /** The client's side of the two wire pipes. */
    public FakeClient client() {
        return kernel.client;
    }

    /** The scripted failures of this process. */
    public Faults faults() {
        return kernel.faults;
    }

    /** Every platform call so far, in order. */
    public List<Call> calls() {
        return kernel.calls();
    }

    /** How many platform calls were made so far. */
    public int callCount() {
        return kernel.callCount();
    }

    /** The table as it is now. */
    public TableSnapshot snapshot() {
        return locked(kernel.model::snapshot);
    }

    /** What {@code fd} refers to, for example {@code "null device (read)"}, or {@code "closed"}. */
    public String describe(int fd) {
        return locked(() -> kernel.model.describe(fd));
    }

    /** Whether fd 0 or fd 1 refers to its wire file (the one it had at start). */
    public boolean isOnWire(int fd) {
        return (fd == 0 || fd == 1) && refersToWireOf(fd, fd);
    }

    /** Whether {@code fd} refers to the same wire file as fd {@code standardFd} had at start. */
    public boolean refersToWireOf(int fd, int standardFd) {
        return locked(() -> {
            FakeFile f = kernel.model.file(fd);
            return f != null && f == (standardFd == 0 ? kernel.wireIn : kernel.wireOut);
        });
    }

    /** Whether {@code fd} is open and close-on-exec (not inherited by a child). */
    public boolean isCloseOnExec(int fd) {
        return locked(() -> kernel.model.isCloseOnExec(fd));
    }

    /** What the OS standard-handle slot {@code fd} (0..2) refers to, or {@code "closed"}. */
    public String stdHandle(int fd) {
        return locked(() -> kernel.model.describeSlot(fd));
    }

    /**
     * What a child process started with inherited stdio would get as its fd 0, 1 and 2: the
     * standard-handle slots in Windows style, else the descriptors themselves.
     */
    public List<String> childStdio() {
        return locked(kernel.model::childStdio);
    }

    /**
     * Which wires (0: stdin, 1: stdout) a child process started now with inherited stdio could
     * reach: through its standard streams (the slots in Windows style and on Windows, else the
     * descriptors) or through any descriptor or handle it inherits.
     */
    public Set<Integer> wiresReachableByChild() {
        return locked(() -> kernel.wiresAmong(kernel.model.reachableByChild()));
    }

    /**
     * Windows: which wires (0: stdin, 1: stdout) the handle values that the JVM's {@code System.in},
     * {@code System.out} and {@code System.err} captured at start-up name now, through any handle
     * on the wire's file (a private duplicate included). Empty on POSIX, whose JVM holds descriptors.
     */
    public Set<Integer> wiresNamedByJvmHandles() {
        return locked(() -> kernel.model instanceof FakeCrt crt
                ? kernel.wiresAmong(java.util.stream.IntStream.range(0, 3).mapToObj(fd -> crt.handles.fileOf(crt.jvmHandle(fd))).toList())
                : Set.of());
    }

    /** Windows: what the handle value the JVM's stream {@code fd} (0..2) captured at start-up names now, or {@code "closed"} or {@code "none"}. */
    public String jvmHandle(int fd) {
        return locked(() -> kernel.crt().describeJvmHandle(fd));
    }

    /** The descriptors a child process would inherit (open and not close-on-exec). */
    public List<Integer> inheritedDescriptors() {
        return locked(kernel.model::inherited);
    }

    /**
     * With {@link StderrMode#UNREAD_PIPE}: the host starts reading its stderr pipe, and from now on
     * reads every byte as it is written; a writer waiting for room goes on. {@link #stderrText()}
     * shows what it read.
     */
    public void hostReadsStderr() {
        locked(kernel::hostReadsStderr);
    }

    /** Everything written to the stderr sink so far (with {@link StderrMode#UNREAD_PIPE}, what the host has read). */
    public String stderrText() {
        return locked(() -> kernel.stderr.toString(StandardCharsets.UTF_8));
    }

    /** Everything appended so far to the file {@code path} opened with {@link #openAppend}; empty when none. */
    public String fileText(String path) {
        return locked(() -> kernel.files.containsKey(path) ? kernel.files.get(path).toString(StandardCharsets.UTF_8) : "");
    }

    /** Everything written to the terminal so far ({@link StderrMode#TERMINAL_WITH_STDOUT}). */
    public String terminalText() {
        return locked(() -> kernel.terminal.toString(StandardCharsets.UTF_8));
    }

    /**
     * Each moment the wire became unreachable (no descriptor referred to one of the two wire
     * files), naming the call that caused it; empty when the wire was always reachable.
     */
    public List<String> wireViolations() {
        return kernel.violations();
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
        return "FakeProcess[" + name() + ", " + snapshot() + "]";
    }

    private <T> T locked(java.util.function.Supplier<T> query) {
        return kernel.locked(query);
    }

    /** Options for a {@link FakeProcess}. */
    public static final class Builder {
        String name = "fake";
        boolean sockets;
        boolean detachedJvmStreams;
        boolean windows;
        WindowsVariant windowsVariant = WindowsVariant.DEFAULT;
        StderrMode stderr = StderrMode.SINK;
        long pipeCapacity = Long.MAX_VALUE;
        boolean makesPipes;
        boolean scriptedExits;
        byte[] stdinContent;
        final boolean[] closedAtStart = new boolean[2];

        private Builder() {
        }

        /**
         * fd 0 or fd 1 was closed when the process started ({@code <&-}, {@code >&-}), so the
         * JVM's own module image sits there, read-only, as on a real JVM, and
         * {@link #standardOrigin} says {@link io.mcpwire.platform.StandardOrigin#PROCESS_OWN}. The client's pipe for it
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
        public Builder detachedJvmStreams() {
            this.detachedJvmStreams = true;
            return this;
        }

        /**
         * Models Windows: the C runtime's descriptors over Win32 handles, the three standard-handle
         * slots, and the JVM's {@code System.in}, {@code System.out} and {@code System.err} bound to
         * the handles they had at start ({@link FakeJvm}). Claim through {@link FakeProcess#windows()}.
         *
         * <p>The rules: a handle names an open file, which lives while any handle names it; a
         * closed handle's value is reused in the variant's order; a descriptor owns its handle, but
         * fd 1 and fd 2 may share one, which closing either leaves to the other; {@code _dup2}
         * gives the target an inheritable duplicate of the source's handle and closes its old one,
         * before or after as the variant says; a console program's C runtime keeps the slots of fd
         * 0 to 2 in step, a GUI program's does not; a native child gets what the slots name, a
         * Java child what the JVM's start-up handles name ({@link FakeJvm#startChild}); a C runtime
         * call on a closed descriptor fast-fails unless the invalid-parameter handler is
         * suppressed; a query on a pipe that another thread is blocked reading, {@code System.in}
         * included, would hang, and is reported as a violation. The default variant is
         * {@link WindowsVariant#DEFAULT}.
         * {@link #closedAtStart(int)} gives a descriptor open with no OS handle and an empty slot.
         */
        public Builder windows() {
            return windows(WindowsVariant.DEFAULT);
        }

        /**
         * Models Windows as {@link #windows()} does, in one shipped variant: the order of
         * {@code _dup2}'s steps, console or GUI program, fd 1 and fd 2 on one handle value or two
         * (with {@link StderrMode#SAME_AS_STDOUT}), and the order closed handle values are reused in.
         */
        public Builder windows(WindowsVariant variant) {
            this.windows = true;
            this.windowsVariant = java.util.Objects.requireNonNull(variant);
            return this;
        }

        /**
         * Its providers answer {@code pipe()}, so that the claim carries stray output to stderr
         * through a drain thread, as on a real system: what a tool prints then reaches
         * {@link FakeProcess#stderrText()} shortly after, not as it is written. Without it, the fake
         * is a provider that cannot make pipes, and stray output goes to stderr directly.
         */
        public Builder makesPipes() {
            this.makesPipes = true;
            return this;
        }

        /**
         * Its providers, the POSIX face and the Windows one, offer a wait for processes' exits
         * ({@link PlatformDescriptors#processExits()}) that the test ends with
         * {@link FakeProcess#endWatchedProcesses()}: a host's exit as a step of the test. Without
         * it, the POSIX face offers none and the Windows face's is refused, and a host watch polls
         * the real processes.
         */
        public Builder hostExits() {
            this.scriptedExits = true;
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
