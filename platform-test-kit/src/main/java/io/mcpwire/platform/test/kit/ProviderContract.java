package io.mcpwire.platform.test.kit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.platform.test.harness.BlockedThreads;
import java.nio.channels.AsynchronousCloseException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link PlatformDescriptors} contract as a JUnit 5 suite that any provider runs, mcpwire's
 * own and ones users write: extend it, say how to make a pipe in the provider's table and how to
 * tell that a thread is blocked in the provider's wait, and every test below runs against it.
 *
 * <pre>{@code
 * class MyProviderContractTest extends ProviderContract {
 *     protected PlatformDescriptors provider() { return new MyProvider(); }
 *     protected int[] pipe() throws DescriptorException { ... read end, write end ... }
 *     protected void awaitBlocked(Thread t) { BlockedThreads.awaitInNativeCall(t, "poll", Duration.ofSeconds(10)); }
 * }
 * }</pre>
 *
 * <p>It works away from fd 0, 1 and 2, on pipes the subclass makes and on the null device, so it
 * runs inside a test JVM whose own standard streams the test runner uses. The claim on real
 * standard descriptors is tested in child JVMs (see {@code docs/platforms.md}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ProviderContract {
    /** A descriptor number far above what a JVM allocates, so that no other thread reuses it. */
    private static final int FAR = 1000;

    private PlatformDescriptors provider;
    private int readEnd = -1;
    private int writeEnd = -1;

    /** For subclasses. */
    protected ProviderContract() {
    }

    /** The provider under test; called once per test. */
    protected abstract PlatformDescriptors provider();

    /** A new pipe in the provider's table: {read end, write end}. The suite closes both. */
    protected abstract int[] pipe() throws DescriptorException;

    /**
     * Returns once {@code thread} is blocked in the provider's wait inside a read or write (for
     * example {@code BlockedThreads.awaitInNativeCall(thread, "poll", timeout)}), so that a wake-up
     * is tested on a call that has really blocked.
     */
    protected abstract void awaitBlocked(Thread thread);

    /**
     * For a provider whose JVM streams do not follow the descriptors: what the suite sees of its
     * table's standard descriptors, to check its duties after a move (the slot, the JVM's start-up
     * handle value, a read stranded on the wire). Empty, the default, leaves those checks out:
     * right for every POSIX provider, and for a provider of the real process, whose fd 0, 1 and 2
     * belong to the test runner ({@link ClaimScenarios} checks them in child JVMs).
     */
    protected Optional<StandardHandles> standardHandles() {
        return Optional.empty();
    }

    /**
     * Whether {@code identity} tells a descriptor's file (so that a duplicate's identity equals
     * the original's) and its access mode, as on POSIX. A provider whose identities are only its
     * handles and that takes every standard handle as writable (Windows) says false; it is then
     * held to {@code sameFile} alone.
     */
    protected boolean identityTellsFileAndAccess() {
        return true;
    }

    @BeforeEach
    final void openPipe() throws DescriptorException {
        provider = provider();
        assertEquals(Probe.available(), provider.probe(), () -> provider.name() + " cannot run here");
        int[] ends = pipe();
        readEnd = ends[0];
        writeEnd = ends[1];
    }

    @AfterEach
    final void closePipe() {
        for (int fd : new int[] {readEnd, writeEnd}) {
            if (fd >= 0) {
                try {
                    provider.close(fd);
                } catch (DescriptorException alreadyClosed) {
                    // closed by the test
                }
            }
        }
    }

    @Test
    void describeNamesADescriptorForDiagnosticsAndNeverThrows() throws Exception {
        String open = provider.describe(readEnd);
        assertTrue(open != null && !open.isBlank(), "describe(" + readEnd + ") says something");
        provider.close(writeEnd);
        String closed = provider.describe(writeEnd);
        writeEnd = -1;
        assertTrue(closed != null && !closed.isBlank(), "describe of a closed descriptor says something too");
    }

    /** The probe is the one place that loads native code, once: asked again, the same answer. */
    @Test
    void theProbeSaysAvailableAndSaysItAgain() {
        assertEquals(Probe.available(), provider.probe());
        assertEquals(Probe.available(), provider.probe());
        assertFalse(provider.name().isBlank());
    }

    /** The children's tie holds or fails with a named error, and a second call keeps the first answer. */
    @Test
    void tyingTheChildrenHoldsOrNamesWhyAndASecondCallKeepsTheFirst() {
        try {
            boolean tied = provider.tieChildrenToProcess();
            assertEquals(tied, provider.tieChildrenToProcess(), () -> provider.name() + ": a second call must keep the first tie");
        } catch (DescriptorException e) {
            assertFalse(e.operation().isBlank(), () -> provider.name() + ": a failed tie names its call: " + e.getMessage());
        }
    }

    /** The engine passes over a provider built for a version of the SPI it does not run. */
    @Test
    void itDeclaresAVersionOfTheSpiTheEngineRuns() {
        int version = provider.spiVersion();
        assertTrue(version >= PlatformDescriptors.OLDEST_SPI_VERSION && version <= PlatformDescriptors.SPI_VERSION,
                () -> provider.name() + " was built for SPI version " + version + "; the engine runs "
                        + PlatformDescriptors.OLDEST_SPI_VERSION + " to " + PlatformDescriptors.SPI_VERSION);
    }

    /**
     * The standard-handle duties are offered exactly where the JVM's streams do not follow the
     * descriptors (the engine passes over a provider that owes them and offers none), and offered
     * or not the same each time.
     */
    @Test
    void standardHandleDutiesAreOfferedExactlyWhereTheJvmStreamsDoNotFollow() {
        Optional<StandardHandleDuties> duties = provider.standardHandleDuties();
        assertEquals(!provider.jvmStreamsFollowDescriptors(), duties.isPresent(), () -> provider.name()
                + (duties.isPresent() ? " offers standard-handle duties although its JVM streams follow the descriptors"
                        : "'s JVM streams do not follow the descriptors, yet it offers no standard-handle duties"));
        assertEquals(duties.isPresent(), provider.standardHandleDuties().isPresent(),
                () -> provider.name() + ": standardHandleDuties() changed between two calls");
    }

    @Test
    void duplicatesLandAboveTheStandardRangeAndNameTheSameFile() throws Exception {
        int above = provider.duplicateAboveStandard(readEnd);
        int lowest = provider.duplicate(writeEnd);
        int nul = provider.openNullDevice(Access.READ);
        try {
            assertTrue(above > 2, "duplicateAboveStandard gave " + above);
            assertTrue(provider.sameFile(above, readEnd));
            if (identityTellsFileAndAccess()) {
                assertTrue(provider.identity(above).sameFileAs(provider.identity(readEnd)));
            }
            assertTrue(provider.sameFile(lowest, writeEnd));
            assertFalse(provider.sameFile(nul, readEnd), "the null device is not the pipe");
        } finally {
            provider.close(above);
            provider.close(lowest);
            provider.close(nul);
        }
    }

    @Test
    void identityTellsPipeEndsAndTheNullDevice() throws Exception {
        FileIdentity r = provider.identity(readEnd);
        FileIdentity w = provider.identity(writeEnd);
        assertEquals(FileIdentity.Kind.PIPE, r.kind());
        assertEquals(FileIdentity.Kind.PIPE, w.kind());
        assertTrue(w.writable(), "a pipe's write end is writable");
        if (identityTellsFileAndAccess()) {
            assertFalse(r.writable(), "a pipe's read end is not writable");
        }
        for (Access access : Access.values()) {
            int nul = provider.openNullDevice(access);
            try {
                assertEquals(FileIdentity.Kind.NULL_DEVICE, provider.identity(nul).kind());
                if (identityTellsFileAndAccess()) {
                    assertEquals(access == Access.WRITE, provider.identity(nul).writable());
                }
            } finally {
                provider.close(nul);
            }
        }
    }

    @Test
    void duplicateOntoMovesAFileAndErrorsNameTheCallTheDescriptorAndTheOsError() throws Exception {
        provider.duplicateOnto(writeEnd, FAR);
        provider.duplicateOnto(readEnd, FAR);
        assertTrue(provider.sameFile(FAR, readEnd));
        provider.close(FAR);
        DescriptorException e = assertThrows(DescriptorException.class, () -> provider.close(FAR));
        assertEquals(FAR, e.descriptor());
        assertNotEquals(0, e.errorCode(), "the OS error code");
        assertTrue(e.getMessage().contains("close") && e.getMessage().contains(String.valueOf(FAR)), e.getMessage());
        assertThrows(DescriptorException.class, () -> provider.identity(FAR));
        assertThrows(DescriptorException.class, () -> provider.duplicateOnto(FAR, FAR + 1));
        assertThrows(DescriptorException.class, () -> provider.duplicateAboveStandard(FAR));
    }

    @Test
    void streamsCarryBytesThroughPartialReadsAndWritesAndReportEndOfInput() throws Exception {
        byte[] big = new byte[300_000]; // more than a pipe holds: the writer loops over partial writes
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        try (DescriptorStream in = provider.open(readEnd); DescriptorStream out = provider.open(writeEnd)) {
            assertEquals(readEnd, in.descriptor());
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    out.write(big, 0, big.length);
                    out.close(); // a stream may hold the pipe open through a description of its own
                    provider.close(writeEnd);
                    writeEnd = -1;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            byte[] got = new byte[big.length];
            int n = 0;
            int r;
            while (n < got.length && (r = in.read(got, n, Math.min(8192, got.length - n))) > 0) {
                n += r;
            }
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(-1, in.read(new byte[1], 0, 1), "end of input once the writer's stream and descriptor are closed");
            assertEquals(0, in.read(new byte[1], 0, 0), "a read of nothing reads nothing");
            assertEquals(big.length, n);
            assertArrayEquals(big, got);
        }
    }

    @Test
    void aReadBlockedOnAnIdlePipeIsWokenAndLaterCallsFail() throws Exception {
        try (DescriptorStream in = provider.open(readEnd)) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread t = BlockedThreads.start(() -> in.read(new byte[16], 0, 16), outcome);
            awaitBlocked(t);
            in.wakeUp();
            assertInstanceOf(AsynchronousCloseException.class, outcome.get(10, TimeUnit.SECONDS));
            assertThrows(AsynchronousCloseException.class, () -> in.read(new byte[1], 0, 1));
            in.wakeUp(); // idempotent
        }
    }

    @Test
    void aWriteBlockedOnAFullPipeIsWoken() throws Exception {
        try (DescriptorStream out = provider.open(writeEnd)) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread t = BlockedThreads.start(() -> out.write(new byte[10_000_000], 0, 10_000_000), outcome); // nobody reads
            awaitBlocked(t);
            out.wakeUp();
            assertInstanceOf(AsynchronousCloseException.class, outcome.get(10, TimeUnit.SECONDS));
        }
    }

    /**
     * {@link PlatformDescriptors#processExits()} is optional, and a wait it offers may be refused,
     * naming the call (the host watch then polls); a wait that opens on several processes names the
     * one that exited, a process gone before the wait opened at once, and a wait woken from another
     * thread returns empty. The processes are POSIX {@code sleep}s.
     */
    @Test
    @EnabledOnPosix
    void aWaitForExitsNamesTheProcessThatEndedAndAWakeEndsIt() throws Exception {
        Optional<ProcessExits> offered = provider.processExits();
        Assumptions.assumeTrue(offered.isPresent(), "the provider offers no wait for exits: the host watch polls");
        ProcessExits exits = offered.get();
        Process stays = sleeper();
        Process ends = sleeper();
        Process gone = sleeper();
        gone.destroy();
        gone.waitFor();
        try {
            Optional<ProcessExits.Wait> opened = openOrRefused(exits, stays.pid(), ends.pid());
            if (opened.isEmpty()) {
                return;
            }
            try (ProcessExits.Wait wait = opened.get()) {
                ends.destroy();
                assertEquals(OptionalLong.of(ends.pid()), wait.await(), "the wait names the process that ended");
            }
            try (ProcessExits.Wait wait = exits.watch(gone.pid())) {
                assertEquals(OptionalLong.of(gone.pid()), wait.await(), "a process gone before the wait opened, at once");
            }
            try (ProcessExits.Wait wait = exits.watch(stays.pid())) {
                CompletableFuture<OptionalLong> outcome = new CompletableFuture<>();
                Thread t = new Thread(() -> {
                    try {
                        outcome.complete(wait.await());
                    } catch (Throwable e) {
                        outcome.completeExceptionally(e);
                    }
                }, "kit-exit-wait");
                t.setDaemon(true);
                t.start();
                awaitBlocked(t);
                wait.wake();
                assertEquals(OptionalLong.empty(), outcome.get(10, TimeUnit.SECONDS), "a woken wait returns empty");
                wait.wake(); // idempotent
                t.join();
            }
        } finally {
            stays.destroyForcibly();
            ends.destroyForcibly();
        }
    }

    /**
     * A wait; when the provider refuses it, the refusal must name its call and its error, and the
     * test is skipped, saying why: a system may refuse (a kernel too old, a sandbox).
     */
    private static Optional<ProcessExits.Wait> openOrRefused(ProcessExits exits, long... pids) {
        try {
            return Optional.of(exits.watch(pids));
        } catch (DescriptorException refused) {
            assertTrue(refused.getMessage().contains("(") && refused.errorCode() != 0,
                    "a refusal names its call and its error: " + refused.getMessage());
            Assumptions.abort("the provider refused the wait, as a system may: " + refused.getMessage());
            return Optional.empty();
        }
    }

    /** A process that has exited but that its parent has not reaped (a zombie) has ended. */
    @Test
    @EnabledOnPosix
    void aWaitForExitsCountsAnUnreapedProcessAsEnded() throws Exception {
        Optional<ProcessExits> offered = provider.processExits();
        Assumptions.assumeTrue(offered.isPresent(), "the provider offers no wait for exits: the host watch polls");
        // sh starts a short sleep in the background, prints its pid, then becomes a long sleep that never reaps it
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0.2 & echo $!; exec sleep 60").start();
        try {
            long zombie = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine().trim());
            Optional<ProcessExits.Wait> opened = openOrRefused(offered.get(), zombie);
            if (opened.isEmpty()) {
                return;
            }
            try (ProcessExits.Wait wait = opened.get()) {
                assertEquals(OptionalLong.of(zombie), wait.await());
            }
            assertTrue(parent.isAlive(), "its parent, which never reaps it, still runs");
        } finally {
            parent.destroyForcibly();
        }
    }

    private static Process sleeper() throws java.io.IOException {
        return new ProcessBuilder("sleep", "60").start();
    }

    @Test
    void writingToAPipeWhoseReaderHasGoneFailsWithTheOsErrorNotACrash() throws Exception {
        provider.close(readEnd);
        readEnd = -1;
        try (DescriptorStream out = provider.open(writeEnd)) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> out.write(new byte[] {'x'}, 0, 1));
            assertNotEquals(0, e.errorCode());
            assertEquals(writeEnd, e.descriptor());
        }
    }

    /**
     * {@code pipe()} is optional: a provider either refuses it, naming the call, or gives two ends
     * of its own above the standard range that carry bytes in order and end at end of input once
     * the write end is closed.
     */
    @Test
    void aPipeOfItsOwnCarriesBytesInOrderOrIsRefusedByName() throws Exception {
        PipeEnds ends;
        try {
            ends = provider.pipe();
        } catch (DescriptorException refused) {
            assertTrue(refused.operation().startsWith("pipe") || refused.operation().startsWith("_pipe"),
                    () -> "the refusal names the call: " + refused.getMessage());
            return;
        }
        try (DescriptorStream in = provider.open(ends.readEnd()); DescriptorStream out = provider.open(ends.writeEnd())) {
            assertFalse(provider.sameFile(ends.readEnd(), readEnd), "a new pipe, not the test's");
            byte[] sent = "first, then second".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            out.write(sent, 0, sent.length);
            out.close();
            provider.close(ends.writeEnd());
            byte[] got = new byte[sent.length];
            int n = 0;
            for (int r; n < got.length && (r = in.read(got, n, got.length - n)) > 0; ) {
                n += r;
            }
            assertArrayEquals(sent, got);
            assertEquals(-1, in.read(new byte[1], 0, 1), "end of input once the only write end is closed");
        } finally {
            provider.close(ends.readEnd());
        }
    }

    // ------------------------------------------------------------------ the duties after a move

    /** Duty {@code rebindStandardHandle}: after a move of fd 1, it alone points the OS slot at what fd 1 names. */
    @Test
    void dutyTheSlotFollowsAMove() throws Exception {
        withDivertedStdout(Duty.SLOT, handles -> assertEquals(handles.descriptor(1), handles.slot(1),
                () -> provider.name() + " skipped the duty rebindStandardHandle: after a move of fd 1 its slot names "
                        + handles.slot(1) + ", not " + handles.descriptor(1)));
    }

    /** Duty {@code followStartupHandle}: after a move of fd 1, it alone makes the JVM's start-up value name what fd 1 names. */
    @Test
    void dutyTheJvmsStartupHandleFollowsAMove() throws Exception {
        withDivertedStdout(Duty.STARTUP_HANDLE, handles -> assertEquals(handles.descriptor(1), handles.startupValue(1),
                () -> provider.name() + " skipped the duty followStartupHandle: after a move of fd 1 the JVM's start-up handle "
                        + "names " + handles.startupValue(1) + ", not " + handles.descriptor(1) + ", so an inheritIO() child "
                        + "would reach the wire"));
    }

    /** Duty {@code cancelStrandedReads}: a read pending on the stdin wire through the JVM's start-up value ends once fd 0 has left the wire. */
    @Test
    void dutyAReadStrandedOnTheWireIsCancelled() throws Exception {
        StandardHandles handles = assumeDuties();
        try {
            CompletableFuture<Object> stranded = handles.blockedStartupRead();
            int privateFd = provider.duplicateAboveStandard(0);
            moveOnto(0, provider.openNullDevice(Access.READ), privateFd, EnumSet.allOf(Duty.class));
            try {
                // A table of its own (a model) ends a cancelled read in milliseconds; a skipped duty waits this out.
                stranded.get(3, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(provider.name() + " skipped the duty cancelStrandedReads: a read pending on the stdin "
                        + "wire since before fd 0 moved still waits, and would take the client's bytes");
            } finally {
                moveOnto(0, privateFd, privateFd, EnumSet.allOf(Duty.class));
                provider.close(privateFd);
            }
        } finally {
            handles.close();
        }
    }

    /** The duties after a move, each checked alone. */
    private enum Duty { SLOT, STARTUP_HANDLE, STRANDED_READS }

    private StandardHandles assumeDuties() {
        org.junit.jupiter.api.Assumptions.assumeTrue(provider.standardHandleDuties().isPresent(),
                "the JVM's streams follow the descriptors: no duties after a move");
        Optional<StandardHandles> handles = standardHandles();
        org.junit.jupiter.api.Assumptions.assumeTrue(handles.isPresent(),
                "the standard descriptors of this provider's table cannot be moved in a test JVM");
        return handles.get();
    }

    /** Diverts fd 1 onto the null device with {@code duty} alone done after it, runs {@code check}, and puts it back. */
    private void withDivertedStdout(Duty duty, java.util.function.Consumer<StandardHandles> check) throws Exception {
        StandardHandles handles = assumeDuties();
        try {
            int privateFd = provider.duplicateAboveStandard(1);
            moveOnto(1, provider.openNullDevice(Access.WRITE), privateFd, EnumSet.of(duty));
            try {
                check.accept(handles);
            } finally {
                moveOnto(1, privateFd, privateFd, EnumSet.allOf(Duty.class));
                provider.close(privateFd);
            }
        } finally {
            handles.close();
        }
    }

    /** Points {@code fd} at {@code source}'s file, closing {@code source} unless it is the private duplicate, then {@code duties}, as the claim does. */
    private void moveOnto(int fd, int source, int privateFd, Set<Duty> duties) throws DescriptorException {
        provider.duplicateOnto(source, fd);
        if (source != privateFd) {
            provider.close(source);
        }
        StandardHandleDuties owed = provider.standardHandleDuties().orElseThrow();
        if (duties.contains(Duty.SLOT)) {
            owed.rebindStandardHandle(fd);
        }
        if (duties.contains(Duty.STARTUP_HANDLE)) {
            owed.followStartupHandle(fd);
        }
        if (duties.contains(Duty.STRANDED_READS) && fd == 0) {
            owed.cancelStrandedReads(fd, privateFd);
        }
    }
}
