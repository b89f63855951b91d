package io.mcpwire.stdio;

import static io.mcpwire.stdio.FakeWire.RESPONSE;
import static io.mcpwire.stdio.FakeWire.TIMEOUT;
import static io.mcpwire.stdio.FakeWire.exchange;
import static io.mcpwire.stdio.FakeWire.privateDuplicate;
import static io.mcpwire.stdio.FakeWire.readLine;
import static io.mcpwire.stdio.FakeWire.readOnce;
import static io.mcpwire.stdio.FakeWire.writeStray;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.Call;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.TableSnapshot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The scenarios of the claim contract, on the fake descriptor table. */
class ClaimScenariosTest {

    private static StdioClaim claim(FakeProcess fake) {
        return StdioClaim.builder().platform(fake).acquire();
    }

    private static void assertRestored(FakeProcess fake, TableSnapshot before) {
        assertTrue(fake.isOnWire(0), "fd 0 is back on the wire");
        assertTrue(fake.isOnWire(1), "fd 1 is back on the wire");
        assertEquals(before, fake.snapshot(), () -> "the table is as before:\n" + before.differenceFrom(fake.snapshot()));
        fake.assertWireAlwaysReachable();
    }

    private static List<Call> callsOn(FakeProcess fake, Op op, int fd) {
        return fake.calls().stream().filter(c -> c.op() == op && c.fd() == fd).collect(Collectors.toList());
    }

    @Test
    void normalClaimDivertsBothStreamsServesTheWireAndRestoresOnClose() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = claim(fake)) {
            assertEquals(ClaimState.DIVERTED, claim.inputState());
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            assertTrue(claim.isIsolated());
            assertEquals("null device (read)", fake.describe(0));
            assertEquals("stderr", fake.describe(1));
            assertEquals(-1, readOnce(fake, 0), "fd 0 reads end of input at once");
            writeStray(fake, 1, "stray\n");
            assertEquals("stray\n", fake.stderrText(), "fd 1 writes reach stderr");

            int p0 = privateDuplicate(fake, 0);
            int p1 = privateDuplicate(fake, 1);
            assertTrue(p0 >= 3 && p1 >= 3, "private duplicates above the standard range");
            assertTrue(fake.isCloseOnExec(p0) && fake.isCloseOnExec(p1), "private duplicates are not inherited");
            exchange(fake, claim);
            assertEquals("", fake.client().drainText(), "nothing but the response reached the client");
        }
        assertRestored(fake, before);
    }

    @Test
    void strayOutputAndAnInheritingChildNeverTouchTheWire() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        try (StdioClaim claim = claim(fake)) {
            assertEquals(List.of("null device (read)", "stderr", "stderr"), fake.childStdio(),
                    "a child that inherits stdio reads the null device and writes to stderr");
            int p0 = privateDuplicate(fake, 0);
            int p1 = privateDuplicate(fake, 1);
            assertFalse(fake.inheritedDescriptors().contains(p0));
            assertFalse(fake.inheritedDescriptors().contains(p1));
            fake.client().send(FakeWire.REQUEST);
            writeStray(fake, 1, "println from a tool\n");
            assertEquals(-1, readOnce(fake, 0), "a stray reader of fd 0 steals nothing");
            assertEquals(FakeWire.REQUEST, readLine(claim.input()));
            FakeWire.writeLine(claim.output(), RESPONSE);
        }
        assertEquals(RESPONSE + "\n", fake.client().drainText(), "the client sees only JSON-RPC");
        assertEquals("println from a tool\n", fake.stderrText());
    }

    @Test
    void onWindowsStyleTheJvmStreamsAreSwappedForTheSessionThenPointedAtTheRestoredDescriptors() throws IOException {
        FakeProcess fake = FakeProcess.builder().detachedJvmStreams().build();
        var out = System.out;
        var in = System.in;
        try {
            try (StdioClaim claim = claim(fake)) {
                assertFalse(System.out == out, "System.out is swapped");
                assertFalse(System.in == in, "System.in is swapped");
                System.out.println("println from a tool");
                assertEquals(-1, System.in.read(), "System.in reads end of input");
                assertEquals(List.of("null device (read)", "stderr", "stderr"), fake.childStdio(),
                        "the standard-handle slots a child inherits were rebound");
                exchange(fake, claim);
            }
            // The originals hold the OS handles that _dup2 closed at the claim: never used again.
            assertFalse(System.out == out || System.in == in, "new streams, not the originals");
            System.out.println("after the session");
            assertEquals("after the session" + System.lineSeparator(), fake.client().readLine(TIMEOUT) + "\n",
                    "System.out writes the restored fd 1, ending the line as println does here");
            fake.client().send("typed after the session");
            assertEquals('t', System.in.read(), "System.in reads the restored fd 0");
        } finally {
            System.setOut(out);
            System.setIn(in);
        }
        assertEquals("println from a tool" + System.lineSeparator(), fake.stderrText());
        assertEquals(List.of("client->server pipe (read end)", "server->client pipe (write end)", "stderr"),
                fake.childStdio(), "the slots point at the wire again");
    }

    @Test
    void unflushedSystemOutTextDrainsIntoTheDiversionNotOntoTheRestoredWire() throws IOException {
        FakeProcess fake = FakeProcess.builder().detachedJvmStreams().build();
        var out = System.out;
        try (StdioClaim claim = claim(fake)) {
            exchange(fake, claim);
            // print() flushes at once; write(int) without a newline stays in System.out's buffer.
            for (byte b : "partial, no newline".getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                System.out.write(b);
            }
            assertEquals("", fake.stderrText(), "still buffered in System.out");
        } finally {
            if (System.out != out) {
                System.setOut(out);
            }
        }
        assertEquals("partial, no newline", fake.stderrText());
        assertEquals("", fake.client().drainText());
    }

    @Test
    void degradesToInPlaceWhenThePrivateDuplicateFails() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        fake.faults().on(Op.DUP_ABOVE_STANDARD).where(c -> c.fd() == 0);
        assertDegradedInPlaceAndWorking(fake, fake.snapshot());
    }

    @Test
    void degradesToInPlaceWhenTheDiversionCannotBeOpened() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        fake.faults().on(Op.OPEN_NULL);
        assertDegradedInPlaceAndWorking(fake, fake.snapshot());
    }

    @Test
    void degradesToInPlaceWhenTheDivertingDup2Fails() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0);
        assertDegradedInPlaceAndWorking(fake, fake.snapshot());
    }

    @Test
    void degradesToInPlaceWhenTheDivertingDup2DestroysItsTargetThenFails() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0).destroyingTarget();
        assertDegradedInPlaceAndWorking(fake, fake.snapshot());
    }

    private static void assertDegradedInPlaceAndWorking(FakeProcess fake, TableSnapshot before) throws IOException {
        try (StdioClaim claim = claim(fake)) {
            assertEquals(ClaimState.IN_PLACE, claim.inputState());
            assertTrue(fake.isOnWire(0), "fd 0 is on the wire");
            assertEquals(-1, privateDuplicate(fake, 0), "no private duplicate is left behind");
            exchange(fake, claim);
        }
        assertRestored(fake, before);
    }

    /** The seed scenario: the close of the diversion fails and the rollback dup2 fails too. */
    @Test
    void rollsForwardWhenTheRollbackFailsAndTheRestoreAtExitPutsFdBack() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.CLOSE).nth(1);
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0).nth(2);
        StdioClaim claim = claim(fake);
        assertEquals(ClaimState.ROLLED_FORWARD, claim.inputState());
        assertEquals("null device (read)", fake.describe(0), "fd 0 stays on the null device while serving");
        exchange(fake, claim); // the request is still received, through the private duplicate
        assertTrue(claim.toString().contains("ROLLED_FORWARD"));
        assertThrows(ClaimRefusedException.class, () -> claim(fake), "the claim is held");

        claim.close();
        List<Call> dup2s = callsOn(fake, Op.DUP2, 0);
        assertEquals(3, dup2s.size(), "divert, failed rollback, restore: " + dup2s);
        assertEquals(ClaimState.RELEASED, claim.inputState());
        assertTrue(claim.isReleased(), "the claim is free");
        assertRestored(fake, before);
        claim(fake).close();
    }

    @Test
    void aFailedRestoreIsSwallowedKeepsTheClaimAndRefusesLaterClaimsByFd() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        StdioClaim claim = claim(fake);
        exchange(fake, claim);
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0);
        claim.close(); // no exception escapes
        assertEquals(ClaimState.STUCK, claim.inputState());
        assertEquals(ClaimState.RELEASED, claim.outputState());
        assertEquals("null device (read)", fake.describe(0), "fd 0 stays on the diversion");
        fake.assertWireAlwaysReachable();

        ClaimRefusedException refused = assertThrows(ClaimRefusedException.class, () -> claim(fake));
        assertEquals(0, refused.descriptor());
        assertTrue(refused.getMessage().contains("fd 0"), refused.getMessage());
        assertTrue(refused.getMessage().contains("STUCK"), refused.getMessage());

        claim.close(); // retry: this time the restore works
        assertTrue(claim.isReleased());
        assertRestored(fake, before);
    }

    @Test
    void aSecondConcurrentClaimIsRefusedAndTheFirstKeepsServing() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        try (StdioClaim first = claim(fake)) {
            TableSnapshot during = fake.snapshot();
            ClaimRefusedException e = assertThrows(ClaimRefusedException.class, () -> claim(fake));
            assertEquals(0, e.descriptor());
            assertEquals(during, fake.snapshot(), "the refusal touched no descriptor");
            exchange(fake, first);
        }
    }

    @Test
    void aClaimRefusedStdoutLeavesStdinOnTheWireAndFree() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        try (StdioClaim stdoutOnly = StdioClaim.builder().platform(fake).input(false).acquire()) {
            assertThrows(ClaimRefusedException.class, () -> claim(fake));
            assertTrue(fake.isOnWire(0), "fd 0 is on the wire");
            try (StdioClaim stdinOnly = StdioClaim.builder().platform(fake).output(false).acquire()) {
                assertEquals(ClaimState.DIVERTED, stdinOnly.inputState(), "fd 0 was released before the refusal");
                assertThrows(IllegalStateException.class, stdinOnly::output);
            }
            assertThrows(IllegalStateException.class, stdoutOnly::input);
        }
    }

    @Test
    void withStderrClosedTheClaimEngagesAndStdoutDivertsToTheNullDevice() throws IOException {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.CLOSED).build();
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = claim(fake)) {
            assertTrue(claim.isIsolated());
            assertEquals("null device (write)", fake.describe(1));
            assertEquals("closed", fake.describe(2), "fd 2 is left closed");
            assertTrue(privateDuplicate(fake, 0) > 2 && privateDuplicate(fake, 1) > 2, "no private duplicate on fd 2");
            exchange(fake, claim);
        }
        assertRestored(fake, before);
    }

    @Test
    void whenStderrIsAReadOnlyFileStdoutDivertsToTheNullDevice() throws IOException {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.READ_ONLY_FILE).build();
        try (StdioClaim claim = claim(fake)) {
            assertEquals("null device (write)", fake.describe(1));
            assertEquals("lib/modules", fake.describe(2));
            exchange(fake, claim);
        }
    }

    @Test
    void whenStderrIsTheWireStdoutDivertsToTheNullDevice() throws IOException {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.SAME_AS_STDOUT).build();
        try (StdioClaim claim = claim(fake)) {
            assertEquals("null device (write)", fake.describe(1));
            writeStray(fake, 1, "stray\n");
            exchange(fake, claim);
        }
        assertEquals("", fake.client().drainText(), "stray output never reached the wire");
    }

    @Test
    void whenStdoutAndStderrShareATerminalStdoutDivertsToIt() throws IOException {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.TERMINAL_WITH_STDOUT).build();
        try (StdioClaim claim = claim(fake)) {
            assertEquals("terminal", fake.describe(1));
            assertFalse(fake.isOnWire(1), "fd 1 is a duplicate of fd 2, not the wire itself");
            assertTrue(claim.isIsolated());
        }
        assertTrue(fake.isOnWire(1));
    }

    @Test
    void closeReturnsPromptlyWhileAReaderIsBlockedOnAnIdleWire() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        StdioClaim claim = claim(fake);
        InputStream in = claim.input();
        CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
            try {
                in.read(new byte[10], 0, 10);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        while (fake.calls().stream().noneMatch(c -> c.op() == Op.READ)) {
            Thread.onSpinWait();
        }
        assertTimeoutPreemptively(Duration.ofSeconds(10), claim::close, "close does not hang on a blocked reader");
        Throwable woken = reader.get(10, TimeUnit.SECONDS);
        assertInstanceOf(AsynchronousCloseException.class, woken, "the reader was woken, not left parked");
        assertRestored(fake, before);
    }

    @Test
    void repeatedClaimCyclesLeakNoDescriptorAndNoThread() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        int threads = Thread.activeCount();
        for (int i = 0; i < 1000; i++) {
            try (StdioClaim claim = claim(fake)) {
                if (i % 100 == 0) {
                    exchange(fake, claim);
                }
            }
        }
        assertRestored(fake, before);
        assertTrue(Thread.activeCount() <= threads, "no thread left behind");
    }

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the child is cat")
    void aClaimOnAFakeTableLeavesThisJvmsChildrenRunning() throws Exception {
        Process child = new ProcessBuilder("cat").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            FakeProcess fake = FakeProcess.withPipes();
            try (StdioClaim claim = claim(fake)) {
                assertEquals(ClaimState.DIVERTED, claim.outputState());
            }
            child.getOutputStream().write("still here\n".getBytes(StandardCharsets.UTF_8));
            child.getOutputStream().flush();
            BufferedReader echo = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("still here", echo.readLine(), "the fake's release ends the fake process' children, not this JVM's");
        } finally {
            child.destroyForcibly().waitFor();
        }
    }
}
