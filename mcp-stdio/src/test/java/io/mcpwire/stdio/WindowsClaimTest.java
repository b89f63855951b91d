package io.mcpwire.stdio;

import static io.mcpwire.stdio.FakeWire.TIMEOUT;
import static io.mcpwire.stdio.FakeWire.exchange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.TableSnapshot;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The claim engine over the shared Windows rules and the fake's model of the C runtime and the
 * Win32 handles, judged on where everything ends up: the descriptors, the standard-handle slots a
 * child inherits, and the JVM's own streams, which hold the handles they had at start.
 */
class WindowsClaimTest {
    private static final String STDIN_WIRE = "client->server pipe (read end)";
    private static final String STDOUT_WIRE = "server->client pipe (write end)";
    private FakeJvm jvm;

    private FakeProcess start(FakeProcess fake) {
        jvm = FakeJvm.install(fake);
        return fake;
    }

    @AfterEach
    void exitTheFakeJvm() {
        if (jvm != null) {
            jvm.exit();
        }
    }

    private static StdioClaim claim(FakeProcess fake) {
        return StdioClaim.builder().platform(fake.windows()).acquire();
    }

    @Test
    void aClaimDivertsTheDescriptorsAndTheSlotsAndTheReleasePutsEverythingBack() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = claim(fake)) {
            assertEquals(ClaimState.DIVERTED, claim.inputState());
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            assertEquals(List.of("null device (read)", "stderr"), List.of(fake.describe(0), fake.describe(1)));
            assertEquals(List.of("null device (read)", "stderr", "stderr"), fake.childStdio(), "the slots a child inherits");
            assertEquals(Set.of(), fake.wiresReachableByChild(), "no inheritable handle names a wire");
            assertTrue(fake.isCloseOnExec(FakeWire.privateDuplicate(fake, 0)), "the private duplicates are not inherited");
            assertTrue(fake.isCloseOnExec(FakeWire.privateDuplicate(fake, 1)));
            exchange(fake, claim);
        }
        assertEquals(before, fake.snapshot(), "descriptors and slots as before, nothing leaked");
        assertEquals(List.of(), fake.wireViolations());
    }

    @Test
    void aClaimPutsTheProcessInAJobThatEndsItsChildrenWithItAndTheJobOutlivesTheRelease() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = claim(fake)) {
            assertTrue(fake.childrenTiedToProcess(), "a child started now ends with the server, even if it is killed");
        }
        assertTrue(fake.childrenTiedToProcess(), "a process cannot leave its job");
        assertEquals(before, fake.snapshot(), "the job's handle is held for the process' life, not leaked");
    }

    @Test
    void aClaimThatLeavesTheChildrenMakesNoJob() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        McpwireSettings leave = McpwireSettings.fromSystemProperties().withChildren(Children.LEAVE);
        try (StdioClaim claim = StdioClaim.builder().platform(fake.windows()).settings(leave).acquire()) {
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            assertFalse(fake.childrenTiedToProcess());
        }
        assertFalse(fake.calls().stream().anyMatch(c -> c.op() == Op.JOB_OBJECT));
    }

    @Test
    void aJobThatCannotBeMadeChangesNothingElse() throws Exception {
        for (int step = 1; step <= 3; step++) {
            FakeProcess fake = start(FakeProcess.builder().windows().build());
            TableSnapshot before = fake.snapshot();
            fake.faults().on(Op.JOB_OBJECT).nth(step).once();
            try (StdioClaim claim = claim(fake)) {
                assertEquals(List.of(ClaimState.DIVERTED, ClaimState.DIVERTED), List.of(claim.inputState(), claim.outputState()), "step " + step);
                assertFalse(fake.childrenTiedToProcess(), "step " + step);
                exchange(fake, claim);
            }
            assertEquals(before, fake.snapshot(), "step " + step + ": the job made before the failing step is closed");
            jvm.exit();
            jvm = null;
        }
    }

    @Test
    void whenTheDivertingDup2FailsTheClaimServesInPlaceWithEverythingAsBefore() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0).once();
        try (StdioClaim claim = claim(fake)) {
            assertEquals(ClaimState.IN_PLACE, claim.inputState());
            assertEquals(STDIN_WIRE, fake.describe(0));
            exchange(fake, claim);
        }
        assertEquals(before, fake.snapshot());
    }

    @Test
    void aDup2ThatClosesItsTargetBeforeFailingIsRolledBackOntoTheWire() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0).destroyingTarget().once();
        try (StdioClaim claim = claim(fake)) {
            assertEquals(ClaimState.IN_PLACE, claim.inputState());
            assertEquals(STDIN_WIRE, fake.describe(0), "fd 0 is back on the wire");
            assertEquals(STDIN_WIRE, fake.stdHandle(0), "and so is its slot");
        }
        assertEquals(before, fake.snapshot());
    }

    @Test
    void whenTheRollbackFailsTooTheClaimRollsForwardAndNoChildReachesTheWire() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.CLOSE).once();                                 // closing the diversion after dup2(D, 0)
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0).nth(2).once();  // the rollback
        StdioClaim claim = claim(fake);
        assertEquals(ClaimState.ROLLED_FORWARD, claim.inputState());
        assertEquals("null device (read)", fake.describe(0), "fd 0 stays on the diversion while serving");
        assertEquals("null device (read)", fake.stdHandle(0), "the slot names the diversion, not the handle _dup2 closed");
        assertFalse(fake.wiresReachableByChild().contains(0));
        exchange(fake, claim);
        claim.close();
        assertTrue(claim.isReleased());
        assertEquals(before, fake.snapshot(), "the restore at exit put the wire back");
    }

    @Test
    void theJvmsStreamsAreSwappedForTheSessionThenReattachedToTheRestoredWire() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        PrintStream original = System.out;
        try (StdioClaim claim = claim(fake)) {
            assertNotSame(original, System.out, "System.out is swapped");
            System.out.println("stray println");
            assertEquals(-1, System.in.read(), "System.in reads nothing");
            exchange(fake, claim);
        }
        assertEquals("stray println" + System.lineSeparator(), fake.stderrText(), "the stray print went to the diversion");
        assertNotSame(original, System.out, "the original holds a handle _dup2 closed: never used again");
        System.out.println("after the session");
        assertEquals("after the session" + System.lineSeparator(), fake.client().readLine(TIMEOUT) + "\n",
                "System.out reaches the client again");
    }

    @Test
    void aProcessStartedWithoutStdinLeavesFdZeroAloneAndNeverFastFails() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().closedAtStart(0).build());
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = claim(fake)) {
            assertEquals(ClaimState.ABSENT, claim.inputState());
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            assertEquals("no OS handle", fake.describe(0), "fd 0 untouched");
        }
        assertEquals(before, fake.snapshot());
        assertEquals(List.of(), fake.wireViolations(), "no C runtime call fast-failed");
    }

    @Test
    void withStderrSharingTheWireStdoutDivertsToTheNullDeviceAndStderrIsClaimedToo() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().stderr(StderrMode.SAME_AS_STDOUT).build());
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = claim(fake)) {
            assertTrue(claim.stderrIsWire());
            assertEquals("null device (write)", fake.describe(1));
            assertEquals("null device (write)", fake.describe(2));
            assertEquals(Set.of(), fake.wiresReachableByChild());
            exchange(fake, claim);
        }
        assertEquals(before, fake.snapshot());
    }

    @Test
    void aFailedRestoreKeepsTheClaimAndARetryRestores() throws Exception {
        FakeProcess fake = start(FakeProcess.builder().windows().build());
        TableSnapshot before = fake.snapshot();
        StdioClaim claim = claim(fake);
        fake.faults().on(Op.DUP2).where(c -> c.fd() == 0).once();
        claim.close();
        assertEquals(ClaimState.STUCK, claim.inputState());
        assertFalse(claim.isReleased());
        assertFalse(fake.wiresReachableByChild().contains(0), "still claimed: no child reaches the stdin wire");
        claim.close();
        assertTrue(claim.isReleased());
        assertEquals(before, fake.snapshot());
        assertEquals(STDOUT_WIRE, fake.describe(1));
    }
}
