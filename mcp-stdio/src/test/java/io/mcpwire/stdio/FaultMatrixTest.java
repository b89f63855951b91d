package io.mcpwire.stdio;

import static io.mcpwire.stdio.FakeWire.REQUEST;
import static io.mcpwire.stdio.FakeWire.RESPONSE;
import static io.mcpwire.stdio.FakeWire.readLine;
import static io.mcpwire.stdio.FakeWire.writeLine;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.test.Call;
import io.mcpwire.platform.test.FakeChild;
import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.FaultRule;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.platform.test.WindowsVariant;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import io.mcpwire.platform.test.StderrMode;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract's fault matrix: a full session (claim both streams, serve one request and one
 * response, release) with a failure injected at every platform call, alone and in every pair,
 * with the destroying variant for every {@code dup2} that can destroy its target; after each run,
 * "every failure lands on the safe side" is checked. The Windows layouts run under every {@link WindowsVariant} that ships, and are
 * also held to what a Java child started with {@code inheritIO()} gets: the JVM's start-up handles.
 */
class FaultMatrixTest {
    private static final String REQUEST_2 = REQUEST.replace("\"id\":1", "\"id\":2");
    private static final String RESPONSE_2 = RESPONSE.replace("\"id\":1", "\"id\":2");
    private static final String STDOUT_WIRE = "server->client pipe (write end)";
    /** The calls that point a standard-handle slot: the detached POSIX fake's rebind, Windows' SetStdHandle. */
    private static final Set<Op> SLOT_OPS = Set.of(Op.REBIND, Op.SET_STD_HANDLE);

    /** One injected failure: the k-th platform call of the run, plain or destroying its target. */
    record Fault(int call, boolean destroying) {
        @Override
        public String toString() {
            return "#" + call + (destroying ? " (destroying)" : "");
        }
    }

    /** What one run did. */
    record Run(List<Call> calls, boolean allFired, List<String> violations, ClaimState inputState) {
    }

    /** The descriptor tables the matrix runs over: POSIX tables, and the Windows C runtime over handles. */
    enum Layout {
        /** Pipes on fd 0 and 1, stderr apart. */
        PIPES(false, StderrMode.SINK, -1, false),
        /** {@code 2>&1}: fd 2 is the wire too, and is claimed. */
        STDERR_IS_WIRE(false, StderrMode.SAME_AS_STDOUT, -1, false),
        /** {@code <&-}: the JVM's module image on fd 0, never to be touched. */
        STDIN_CLOSED_AT_START(false, StderrMode.SINK, 0, false),
        /** {@code >&-}: the JVM's module image on fd 1, never to be touched. */
        STDOUT_CLOSED_AT_START(false, StderrMode.SINK, 1, false),
        /** Windows: pipes on the three standard handles. */
        WINDOWS_PIPES(true, StderrMode.SINK, -1, false),
        /** Windows: the standard error handle is another handle on the stdout pipe. */
        WINDOWS_STDERR_IS_WIRE(true, StderrMode.SAME_AS_STDOUT, -1, false),
        /** Windows: started without stdin: fd 0 open with no OS handle, an empty slot. */
        WINDOWS_STDIN_MISSING(true, StderrMode.SINK, 0, false),
        /**
         * Windows: closing fd 0's diversion fails and so does the rollback, so fd 0 serves rolled
         * forward from its private duplicate; every other call fails on top of that.
         */
        WINDOWS_ROLLED_FORWARD(true, StderrMode.SINK, -1, true);

        final boolean windows;
        final StderrMode stderr;
        final int closedAtStart;
        final boolean rolledForward;

        Layout(boolean windows, StderrMode stderr, int closedAtStart, boolean rolledForward) {
            this.windows = windows;
            this.stderr = stderr;
            this.closedAtStart = closedAtStart;
            this.rolledForward = rolledForward;
        }

        FakeProcess build(WindowsVariant variant) {
            return build(variant, false);
        }

        /** The layout, its providers answering {@code pipe()} when {@code makesPipes} (the stray-output drain runs). */
        FakeProcess build(WindowsVariant variant, boolean makesPipes) {
            FakeProcess.Builder b = FakeProcess.builder().stderr(stderr);
            if (makesPipes) {
                b.makesPipes();
            }
            if (windows) {
                b.windows(variant);
            }
            FakeProcess fake = closedAtStart >= 0 ? b.closedAtStart(closedAtStart).build() : b.build();
            if (rolledForward) {
                fake.faults().on(Op.CLOSE).once();                                  // closing D after dup2(D, 0)
                fake.faults().on(Op.DUP2).where(c -> c.fd() == 0).nth(2).once();   // the rollback dup2(P, 0)
            }
            return fake;
        }

        boolean given(int fd) {
            return closedAtStart != fd;
        }
    }

    /** Every POSIX layout once, and every Windows layout under every variant that ships. */
    static Stream<Arguments> layouts() {
        return Stream.of(Layout.values()).flatMap(layout -> layout.windows
                ? MatrixVariants.of(layout.stderr == StderrMode.SAME_AS_STDOUT).stream().map(v -> Arguments.of(layout, v))
                : Stream.of(Arguments.of(layout, null)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("layouts")
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void everySingleAndPairedFailureLandsOnTheSafeSide(Layout layout, WindowsVariant variant) throws IOException {
        Run baseline = session(List.of(), layout, variant);
        assertTrue(baseline.violations().isEmpty(), () -> "the fault-free session: " + baseline.violations());
        if (layout.rolledForward) {
            assertTrue(baseline.inputState() == ClaimState.ROLLED_FORWARD, () -> "the layout's own faults roll fd 0 forward, not "
                    + baseline.inputState());
        }
        int runs = 0;
        List<String> violations = new ArrayList<>();
        for (int k1 = 1; k1 <= baseline.calls().size(); k1++) {
            for (boolean d1 : variants(baseline.calls().get(k1 - 1), variant)) {
                Fault f1 = new Fault(k1, d1);
                Run single = session(List.of(f1), layout, variant);
                runs++;
                record(List.of(f1), single, violations);
                for (int k2 = k1 + 1; k2 <= single.calls().size(); k2++) {
                    for (boolean d2 : variants(single.calls().get(k2 - 1), variant)) {
                        List<Fault> pair = List.of(f1, new Fault(k2, d2));
                        Run paired = session(pair, layout, variant);
                        if (!paired.allFired()) {
                            continue; // the same run as one already counted
                        }
                        runs++;
                        record(pair, paired, violations);
                    }
                }
            }
        }
        System.err.println("fault matrix (" + layout + (variant != null ? ", " + variant : "") + "): " + runs + " runs, "
                + violations.size() + " violations");
        assertTrue(violations.isEmpty(), () -> violations.size() + " violations, first ones:\n"
                + violations.stream().limit(20).collect(Collectors.joining("\n")));
        assertTrue(runs > baseline.calls().size() * 5, "the matrix ran the pairs");
    }

    /** A {@code dup2} fails plainly, or after destroying its target where the runtime closes first. */
    private static boolean[] variants(Call call, WindowsVariant variant) {
        boolean canDestroy = variant == null || variant.dup2Order() == WindowsVariant.Dup2Order.CLOSE_FIRST;
        return call.op() == Op.DUP2 && canDestroy ? new boolean[] {false, true} : new boolean[] {false};
    }

    private static void record(List<Fault> faults, Run run, List<String> out) {
        for (String v : run.violations()) {
            out.add("faults " + faults.stream().map(f -> f + " " + run.calls().get(f.call() - 1).describe())
                    .collect(Collectors.joining(" + ")) + ": " + v);
        }
    }

    /** One full session under the given faults, then the rule-9 checks and a following claim. */
    static Run session(List<Fault> faults, Layout layout, WindowsVariant variant) throws IOException {
        FakeProcess fake = layout.build(variant);
        TableSnapshot before = fake.snapshot();
        List<FaultRule> rules = new ArrayList<>();
        for (Fault f : faults) {
            FaultRule r = fake.faults().onCall(f.call());
            rules.add(f.destroying() ? r.destroyingTarget() : r);
        }
        List<String> v = new ArrayList<>();

        if (layout.given(0)) {
            fake.client().send(REQUEST);
        }
        // On Windows the JVM's own streams hold the handles they had at start, as a real JVM's do.
        FakeJvm jvm = layout.windows ? FakeJvm.install(fake) : null;
        try {
            return session(fake, jvm, layout, faults, rules, before, v);
        } finally {
            if (jvm != null) {
                jvm.exit();
            }
        }
    }

    private static Run session(FakeProcess fake, FakeJvm jvm, Layout layout, List<Fault> faults, List<FaultRule> rules,
                               TableSnapshot before, List<String> v) throws IOException {
        StdioClaim claim = StdioClaim.builder().platform(fake.provider()).acquire();
        ClaimState inputState = claim.inputState();
        if (layout.windows) {
            whileClaimed(fake, jvm, claim, v);
        } else {
            posixWhileClaimed(fake, claim, stderrUnknowable(faults, fake.calls()), v);
        }
        String received = null;
        IOException error = null;
        try {
            received = readLine(claim.input());
            if (received != null || !layout.given(0)) {
                writeLine(claim.output(), RESPONSE);
            }
        } catch (IOException e) {
            error = e;
        }
        if (layout.windows) {
            whileClaimed(fake, jvm, claim, v); // again, after serving
        }
        claim.close();
        List<Call> calls = fake.calls();
        boolean allFired = rules.stream().allMatch(r -> r.fired() > 0);

        // Each message arrives exactly once, or the session ends with a clear error.
        if (error != null) {
            if (!(error instanceof DescriptorException) && !(error instanceof AsynchronousCloseException)) {
                v.add("unclear error: " + error);
            } else if (error.getMessage() == null && error instanceof DescriptorException) {
                v.add("error without a message: " + error);
            }
        } else if (!layout.given(1) && error == null) {
            v.add("a write to the stdout the parent never gave did not fail");
        } else if (layout.given(0) && !REQUEST.equals(received)) {
            v.add("the request was not received, and no error said so (got " + received + ")");
        } else if (!layout.given(0) && received != null) {
            v.add("the stdin the parent never gave read " + received);
        }
        String delivered = fake.client().drainText();
        if (!delivered.isEmpty() && !delivered.equals(RESPONSE + "\n")) {
            v.add("the client received " + delivered.replace("\n", "\\n"));
        }
        if (error == null && !delivered.equals(RESPONSE + "\n")) {
            v.add("the response was written without error but did not arrive");
        }
        if (fake.stderrText().contains("jsonrpc")) {
            v.add("protocol bytes reached stderr");
        }
        if (!layout.given(0) || !layout.given(1)) {
            int absent = layout.closedAtStart;
            calls.stream().filter(c -> c.op() != Op.ORIGIN && (c.fd() == absent || c.source() == absent))
                    .findFirst().ifPresent(c -> v.add("the descriptor the JVM owns was touched: " + c));
        }

        fake.faults().clear();
        // Restoring rebinds the standard handle at best effort, so a failed rebind may leave a slot
        // behind, and a start-up value that could not be taken back (a failed DuplicateHandle) is
        // logged, not fixed; the descriptors themselves must always be exactly as before.
        // A fault scripted past the session's last call never fired.
        List<Call> failed = faults.stream().filter(f -> f.call() <= calls.size()).map(f -> calls.get(f.call() - 1)).toList();
        boolean rebindFailed = failed.stream().anyMatch(c -> SLOT_OPS.contains(c.op()));
        boolean takeBackFailed = failed.stream().anyMatch(c -> c.op() == Op.DUPLICATE_HANDLE);
        if (claim.isReleased()) {
            if (!sameTable(before, fake.snapshot(), rebindFailed, takeBackFailed)) {
                v.add("released, but the table differs:\n" + before.differenceFrom(fake.snapshot()));
            }
            if (layout.windows && layout.given(1) && !takeBackFailed) {
                systemOutReachesTheClient(fake, v);
                FakeChild child = jvm.startInheritIoChild();
                if (!child.stdoutReachesClient()) {
                    v.add("after the release an inheritIO() child's stdout does not reach the client (its stdio " + child.stdio()
                            + ", the JVM's start-up handles " + fake.snapshot().jvmHandles() + ")");
                }
            }
            if (layout.given(0) && layout.given(1)) {
                followingClaimWorks(fake, received == null, v);
            } else {
                StdioClaim.builder().platform(fake.provider()).acquire().close(); // granted, and leaves nothing behind
                if (!before.descriptors().equals(fake.snapshot().descriptors())) {
                    v.add("the following claim left the table changed:\n" + before.differenceFrom(fake.snapshot()));
                }
            }
        } else {
            for (int fd = 0; fd < 2; fd++) {
                ClaimState s = fd == 0 ? claim.inputState() : claim.outputState();
                if (s == ClaimState.STUCK && fake.isOnWire(fd)) {
                    v.add("fd " + fd + " is STUCK but on the wire");
                }
                if (s != ClaimState.STUCK && s != ClaimState.RELEASED) {
                    v.add("fd " + fd + " left in state " + s + " after close");
                }
            }
            try {
                StdioClaim.builder().platform(fake.provider()).acquire().close();
                v.add("a claim was granted while a restore had failed");
            } catch (ClaimRefusedException expected) {
                if (!expected.getMessage().contains("fd " + expected.descriptor())) {
                    v.add("the refusal does not name the fd: " + expected.getMessage());
                }
            }
            claim.close(); // another chance, now without faults
            // Where _dup2 closes first, a restore that failed has freed its descriptor's handle value,
            // and the retried restore of the other stream may land on it: the JVM's start-up values may
            // end crossed (logged); the descriptors and slots are as before.
            if (!claim.isReleased() || !sameTable(before, fake.snapshot(), rebindFailed, true)) {
                v.add("the retried restore did not restore the table:\n" + before.differenceFrom(fake.snapshot()));
            }
        }
        v.addAll(fake.wireViolations()); // over the whole run, the retry and the following claim
        return new Run(calls, allFired, v, inputState);
    }

    /**
     * Windows, while claimed: a stray print reaches no client while fd 1 is isolated; a native child
     * started now with inherited handles could reach no wire whose descriptor is isolated; no handle
     * value the JVM captured at start-up names such a wire, and so an {@code inheritIO()} child
     * reaches none either.
     */
    static void whileClaimed(FakeProcess fake, FakeJvm jvm, StdioClaim claim, List<String> v) {
        if (isolated(claim.outputState())) {
            System.out.print("stray println from a tool\n"); // the delivered-text check sees it if it lands on the wire
            System.out.flush();
        }
        Set<Integer> reachable = fake.wiresReachableByChild();
        // With 2>&1, a claim of fd 2 that failed leaves stderr on the wire: in place, as logged.
        boolean stderrInPlace = claim.stderrIsWire() && (fake.refersToWireOf(2, 1) || fake.stdHandle(2).equals(STDOUT_WIRE));
        for (int fd = 0; fd < 2; fd++) {
            ClaimState s = fd == 0 ? claim.inputState() : claim.outputState();
            if (isolated(s) && reachable.contains(fd) && !(fd == 1 && stderrInPlace)) {
                v.add("fd " + fd + " is " + s + ", but a child started now would reach its wire (std handles "
                        + fake.childStdio() + ")");
            }
        }
        Set<Integer> named = fake.wiresNamedByJvmHandles();
        Set<Integer> javaChild = jvm.startInheritIoChild().wiresReached();
        for (int fd = 0; fd < 2; fd++) {
            ClaimState s = fd == 0 ? claim.inputState() : claim.outputState();
            if (!isolated(s) || (fd == 1 && stderrInPlace)) {
                continue;
            }
            if (named.contains(fd)) {
                v.add("fd " + fd + " is " + s + ", but a handle value the JVM captured at start-up names its wire ("
                        + fake.snapshot().jvmHandles() + ")");
            }
            if (javaChild.contains(fd)) {
                v.add("fd " + fd + " is " + s + ", but an inheritIO() child started now would reach its wire");
            }
        }
    }

    /**
     * POSIX, while claimed: no stream the claim calls isolated has its wire within reach of a child
     * started now (its fd 0 to 2 and every descriptor it inherits), so neither the standard
     * descriptors nor a leaked duplicate carry it.
     */
    static void posixWhileClaimed(FakeProcess fake, StdioClaim claim, boolean stderrUnknowable, List<String> v) {
        Set<Integer> reachable = fake.wiresReachableByChild();
        // With 2>&1, a claim of fd 2 that failed leaves stderr on the wire: in place, as logged; and so
        // does rule 10 when neither fd 2's origin nor whether it is the wire can be told.
        boolean stderrInPlace = (claim.stderrIsWire() || stderrUnknowable) && fake.refersToWireOf(2, 1);
        for (int fd = 0; fd < 2; fd++) {
            ClaimState s = fd == 0 ? claim.inputState() : claim.outputState();
            if (isolated(s) && reachable.contains(fd) && !(fd == 1 && stderrInPlace)) {
                v.add("fd " + fd + " is " + s + ", but a child started now would reach its wire (" + fake.childStdio()
                        + ", inherited " + fake.inheritedDescriptors() + ")");
            }
        }
    }

    /** Whether the faults failed both the question of fd 2's origin and one of whether it is fd 1's file. */
    private static boolean stderrUnknowable(List<Fault> faults, List<Call> calls) {
        List<Call> failed = faults.stream().filter(f -> f.call() <= calls.size()).map(f -> calls.get(f.call() - 1)).toList();
        return failed.stream().anyMatch(c -> c.op() == Op.ORIGIN && c.fd() == 2)
                && failed.stream().anyMatch(c -> c.op() == Op.IDENTITY && (c.fd() == 1 || c.fd() == 2));
    }

    static boolean isolated(ClaimState s) {
        return s == ClaimState.DIVERTED || s == ClaimState.ROLLED_FORWARD;
    }

    /**
     * Windows, after the release: what a tool prints reaches the client again. The fake's writes
     * land in the pipe before {@code println} returns, so what the client holds then is all there is.
     */
    private static void systemOutReachesTheClient(FakeProcess fake, List<String> v) {
        fake.client().drainText();
        System.out.println("after the session");
        String delivered = fake.client().drainText();
        if (!("after the session" + System.lineSeparator()).equals(delivered)) {
            v.add("after the release System.out did not reach the client (it read " + delivered.strip() + ")");
        }
    }

    private static boolean sameTable(TableSnapshot before, TableSnapshot after, boolean rebindFailed, boolean takeBackFailed) {
        return before.descriptors().equals(after.descriptors())
                && (rebindFailed || before.stdHandles().equals(after.stdHandles()))
                && (takeBackFailed || before.jvmHandles().equals(after.jvmHandles()));
    }

    /** A following claim on the same process works (a request in, a response out) and releases. */
    private static void followingClaimWorks(FakeProcess fake, boolean firstRequestUnread, List<String> v) {
        TableSnapshot before = fake.snapshot();
        // A request the first session failed to read is still in the pipe: it arrives now, once.
        String request = firstRequestUnread ? REQUEST : REQUEST_2;
        String response = firstRequestUnread ? RESPONSE : RESPONSE_2;
        try (StdioClaim next = StdioClaim.builder().platform(fake.provider()).acquire()) {
            if (!firstRequestUnread) {
                fake.client().send(REQUEST_2);
            }
            String line = readLine(next.input());
            if (!request.equals(line)) {
                v.add("the following claim read " + line);
                return;
            }
            writeLine(next.output(), response);
            String answer = fake.client().readLine(FakeWire.TIMEOUT);
            if (!response.equals(answer)) {
                v.add("the following claim's response arrived as " + answer);
            }
        } catch (IOException | RuntimeException e) {
            v.add("the following claim failed: " + e);
        }
        if (!before.descriptors().equals(fake.snapshot().descriptors())) {
            v.add("the following claim left the table changed:\n" + before.differenceFrom(fake.snapshot()));
        }
    }
}
