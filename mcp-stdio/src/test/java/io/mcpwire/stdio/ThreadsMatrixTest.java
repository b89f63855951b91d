package io.mcpwire.stdio;

import static io.mcpwire.stdio.FakeWire.REQUEST;
import static io.mcpwire.stdio.FakeWire.RESPONSE;
import static io.mcpwire.stdio.FakeWire.readLine;
import static io.mcpwire.stdio.FakeWire.writeLine;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.FakeChild;
import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.Interference;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.WindowsVariant;
import io.mcpwire.stdio.FaultMatrixTest.Layout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault matrix's Windows axes that a single-threaded replay cannot show (issue 44): other
 * threads of the JVM between any two calls of the claim (allocating a handle, moving the claim's
 * thread to another processor, starting an {@code inheritIO()} child), threads blocked writing
 * an unread stderr pipe (through {@code System.err}, or natively through the C runtime) or blocked
 * in a native {@code _read(0)} on the empty stdin pipe when the claim starts, the stray-output
 * drain's threads making their first handle right after a move, a second provider over the same
 * table, and application code closing {@code FileDescriptor.out}. Under every {@link WindowsVariant}
 * that ships; the claim's thread never waits for a lock another thread holds (the model records
 * such a wait as a hang). Each case prints {@code fault matrix (CASE, VARIANT): N runs, M violations}.
 */
class ThreadsMatrixTest {
    /** What runs beside the claim. */
    enum Case {
        /** Each base layout, with another thread's {@link Interference} after every call of a fault-free session. */
        INTERFERENCE_PIPES(Layout.WINDOWS_PIPES),
        INTERFERENCE_STDERR_IS_WIRE(Layout.WINDOWS_STDERR_IS_WIRE),
        INTERFERENCE_STDIN_MISSING(Layout.WINDOWS_STDIN_MISSING),
        INTERFERENCE_ROLLED_FORWARD(Layout.WINDOWS_ROLLED_FORWARD),
        /** An application thread blocked writing {@code System.err} into a pipe the host never reads, since before the claim. */
        UNREAD_STDERR_WRITER(Layout.WINDOWS_PIPES),
        /** A native thread blocked in {@code _write(2)} on that pipe (HotSpot's own output), holding the C runtime's lock of fd 2. */
        NATIVE_STDERR_WRITER(Layout.WINDOWS_PIPES),
        /**
         * A native thread blocked in {@code _read(0)} on the empty stdin pipe since before the claim (a
         * JNI library's {@code fgets(stdin)}), holding the C runtime's lock of fd 0 and the pipe's
         * file-object lock. Nothing hangs and nothing reaches the wire; the client sends its request
         * once the claim is taken. Where the reader takes it (fd 0 on the wire, as it would be without
         * mcpwire: the application's own doing), the request is not read, and fd 0 must not be isolated.
         */
        NATIVE_STDIN_READER(Layout.WINDOWS_PIPES),
        /** The drain's threads make their first handle (a thread handle) right after the first move. */
        DRAIN_THREADS_AFTER_FIRST_MOVE(Layout.WINDOWS_PIPES),
        /** A claim through the provider, then one through a second instance of it over the same table. */
        SECOND_PROVIDER(Layout.WINDOWS_PIPES),
        /** After a claim's release the application closes {@code FileDescriptor.out}; then a second claim, whose duplicates may take the value. */
        FOREIGN_CLOSE(Layout.WINDOWS_PIPES);

        final Layout layout;

        Case(Layout layout) {
            this.layout = layout;
        }

        /** Whether fd 2 is a pipe the host never reads (and the drain guards it). */
        boolean unreadStderr() {
            return this == UNREAD_STDERR_WRITER || this == NATIVE_STDERR_WRITER;
        }

        /** Whether a native reader of fd 0 runs: the client sends each request once the claim is taken. */
        boolean nativeReader() {
            return this == NATIVE_STDIN_READER;
        }

        boolean drained() {
            return unreadStderr() || this == DRAIN_THREADS_AFTER_FIRST_MOVE;
        }

        FakeProcess build(WindowsVariant variant) {
            if (unreadStderr()) {
                return FakeProcess.builder().stderr(StderrMode.UNREAD_PIPE).makesPipes().windows(variant).build();
            }
            return layout.build(variant, drained());
        }
    }

    /** Every case, or those named by {@code -Dmcpwire.matrix.cases=A,B}. */
    static Stream<Arguments> cases() {
        String only = System.getProperty("mcpwire.matrix.cases", "");
        return Stream.of(Case.values()).filter(c -> only.isEmpty() || List.of(only.split(",")).contains(c.name())).flatMap(c -> MatrixVariants.of(c.layout.stderr == StderrMode.SAME_AS_STDOUT)
                .stream().map(v -> Arguments.of(c, v)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void nothingHangsNothingReachesTheWireAndTheStartUpValuesFollow(Case c, WindowsVariant variant) throws IOException {
        List<String> violations = new ArrayList<>();
        int runs = 0;
        if (c.name().startsWith("INTERFERENCE")) {
            int calls = Math.max(run(c, variant, 0, null, violations), 0);
            runs++;
            for (int k = 1; k <= calls; k++) {
                for (Interference i : Interference.values()) {
                    run(c, variant, k, i, violations);
                    runs++;
                }
            }
        } else {
            run(c, variant, 0, null, violations);
            runs++;
        }
        System.err.println("fault matrix (" + c + ", " + variant + "): " + runs + " runs, " + violations.size() + " violations");
        if (Boolean.getBoolean("mcpwire.matrix.list")) { // every violation, one line each
            violations.forEach(x -> System.err.println("violation (" + c + ", " + variant + "): " + x));
        }
        assertTrue(violations.isEmpty(), () -> violations.size() + " violations, first ones:\n"
                + violations.stream().limit(20).collect(Collectors.joining("\n")));
    }

    /** One session with {@code what} after call {@code k} (none when null); returns the calls of the first claim and release. */
    private static int run(Case c, WindowsVariant variant, int k, Interference what, List<String> out) throws IOException {
        FakeProcess fake = c.build(variant);
        if (c.layout.given(0) && !c.nativeReader()) {
            fake.client().send(REQUEST);
        }
        FakeJvm jvm = FakeJvm.install(fake);
        List<String> v = new ArrayList<>();
        int calls;
        try {
            jvm.watchForHangs();
            switch (c) {
                case UNREAD_STDERR_WRITER -> jvm.blockStderrWriter();
                case NATIVE_STDERR_WRITER -> jvm.blockNativeWriter(2);
                case NATIVE_STDIN_READER -> jvm.blockNativeReader(0);
                case DRAIN_THREADS_AFTER_FIRST_MOVE -> jvm.holdThreadHandles("mcpwire-stray-drain", Op.DUP2);
                default -> { }
            }
            if (what != null) {
                jvm.interfereAfter(k, what);
            }
            calls = session(fake, jvm, c, fake.windows(), what, v);
            if (c.layout.given(0) && c.layout.given(1) && calls > 0) {
                boolean ownClosed = false;
                if (c == Case.FOREIGN_CLOSE) {
                    // new FileOutputStream(FileDescriptor.out).close(): where that value is fd 1's own handle
                    // (the C runtime's _dup2 took it back itself), the application closed its stdout, with or without a claim.
                    ownClosed = jvm.closeStandardStream(1) == FakeJvm.StreamClose.CLOSED_THE_DESCRIPTORS_OWN;
                }
                if (!c.nativeReader()) {
                    fake.client().send(REQUEST);
                }
                if (!ownClosed) {
                    session(fake, jvm, c, c == Case.SECOND_PROVIDER ? jvm.anotherWindowsProvider() : fake.windows(), what, v);
                }
            }
            for (FakeChild child : jvm.racingChildren()) {
                if (!child.wiresReachedThroughOtherHandles().isEmpty()) {
                    v.add("a racing inheritIO() child inherited a handle on wire " + child.wiresReachedThroughOtherHandles()
                            + " that is not one of its own streams (a private duplicate while it was inheritable)");
                }
                if (c.layout.given(1) && child.streamIsForeign(1)) {
                    v.add("a racing inheritIO() child got " + child.stdio().get(1) + " as its stdout: System.out's start-up value "
                            + "was free or another thread's when it started");
                }
            }
            List<String> wire = fake.wireViolations();
            if (c == Case.FOREIGN_CLOSE) { // the application's own close of fd 1's handle loses the stdout wire: not the claim's
                wire = wire.stream().filter(x -> !x.contains("stdout wire")).toList();
            }
            v.addAll(wire);
        } finally {
            jvm.exit();
        }
        String label = what == null ? "" : what + " after call " + k + ": ";
        v.forEach(x -> out.add(label + x));
        return calls;
    }

    /** Claim, checks while claimed, one exchange, release, checks after; returns the calls so far. */
    private static int session(FakeProcess fake, FakeJvm jvm, Case c, PlatformDescriptors provider, Interference what,
                               List<String> v) {
        try {
            return sessionOrThrow(fake, jvm, c, provider, what, v);
        } catch (IOException | RuntimeException e) {
            v.add("the session failed: " + e);
            return -1;
        }
    }

    /** As {@link #session}; the calls so far when released, -1 when a later claim would be refused. */
    private static int sessionOrThrow(FakeProcess fake, FakeJvm jvm, Case c, PlatformDescriptors provider, Interference what,
                                      List<String> v) throws IOException {
        StdioClaim claim = StdioClaim.builder().platform(provider).acquire();
        FaultMatrixTest.whileClaimed(fake, jvm, claim, v);
        if (c.layout.given(0) && (!c.nativeReader() || sendPastNativeReaders(fake, jvm, claim, v))) {
            String received = readLine(claim.input());
            if (!REQUEST.equals(received)) {
                v.add("the request was not received (got " + received + ")");
            }
        }
        if (c.layout.given(1)) {
            writeLine(claim.output(), RESPONSE);
            String delivered = fake.client().drainText();
            if (!delivered.equals(RESPONSE + "\n")) {
                v.add("the client received " + delivered.replace("\n", "\\n"));
            }
        }
        FaultMatrixTest.whileClaimed(fake, jvm, claim, v);
        claim.close();
        int calls = claim.isReleased() ? fake.callCount() : -1;
        if (!claim.isReleased() && !(c.drained() && claim.stderrState() == ClaimState.KEPT_DIVERTED)) {
            v.add("not released: " + claim);
        }
        if (c.layout.given(1)) {
            fake.client().drainText();
            System.out.println("after the session");
            String delivered = fake.client().drainText();
            if (!("after the session" + System.lineSeparator()).equals(delivered)) {
                v.add("after the release System.out did not reach the client (it read " + delivered.strip() + ")");
            }
            FakeChild child = jvm.startInheritIoChild();
            boolean honestResidue = what == Interference.ALLOCATE && child.stdio().get(1).contains("another thread");
            if (!child.stdoutReachesClient() && !honestResidue && fake.jvmHandle(1).length() > 0 && !fake.jvmHandle(1).equals("none")) {
                v.add("after the release an inheritIO() child's stdout does not reach the client (its stdio " + child.stdio()
                        + ", the JVM's start-up handles " + fake.snapshot().jvmHandles() + ")");
            }
        }
        return calls;
    }

    /**
     * The client sends its request while a native reader may be blocked on the stdin pipe; true
     * when the request is there for the claim to read. A reader that took it read fd 0 while fd 0
     * named the wire, as it would without mcpwire (the application's own doing, not judged), but
     * the claim must not call fd 0 isolated then.
     */
    private static boolean sendPastNativeReaders(FakeProcess fake, FakeJvm jvm, StdioClaim claim, List<String> v) {
        int before = jvm.takenFromStdinWire().length();
        fake.client().send(REQUEST);
        jvm.awaitApplicationThreads();
        if (jvm.takenFromStdinWire().length() == before) {
            return true;
        }
        if (FaultMatrixTest.isolated(claim.inputState())) {
            v.add("a native _read(0) took the client's request while fd 0 is " + claim.inputState() + " (fd 0: "
                    + fake.describe(0) + ")");
        }
        return false;
    }
}
