package io.mcpwire.stdio.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.stdio.ClaimState;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** One stream's claim moves only along its table; an illegal move fails loudly; no state is null. */
class StreamClaimTest {
    private final FakeProcess fake = FakeProcess.withPipes();

    private StreamClaim claimOfStdin() {
        return new StreamClaim(fake, 0, fd -> fake.openNullDevice(Access.READ));
    }

    @Test
    void theTableNamesEveryStateAndAClaimStartsPending() {
        assertEquals(EnumSet.allOf(ClaimState.class), StreamClaim.MOVES.keySet());
        assertEquals(ClaimState.PENDING, claimOfStdin().state());
    }

    @Test
    void theWholePathDuplicatedDivertedReleased() {
        TableSnapshot before = fake.snapshot();
        StreamClaim c = claimOfStdin();
        assertTrue(c.duplicate());
        assertEquals(ClaimState.DUPLICATED, c.state());
        assertEquals(ClaimState.DIVERTED, c.divert());
        assertTrue(c.release(true));
        assertEquals(ClaimState.RELEASED, c.state());
        assertEquals(before, fake.snapshot());
    }

    @Test
    void aClaimAbandonedBetweenItsTwoStepsClosesItsPrivateDuplicate() {
        TableSnapshot before = fake.snapshot();
        StreamClaim c = claimOfStdin();
        assertTrue(c.duplicate());
        assertTrue(c.release(true));
        assertEquals(ClaimState.RELEASED, c.state());
        assertEquals(before, fake.snapshot(), "the private duplicate was closed");
    }

    @Test
    void anIllegalMoveThrowsNamingTheStates() {
        StreamClaim c = claimOfStdin();
        IllegalStateException e = assertThrows(IllegalStateException.class, c::divert, "divert before the duplicate");
        assertTrue(e.getMessage().contains("PENDING"), e.getMessage());
        c.absent(new Diversions.Absence("fd 0 was closed when the process started", true));
        assertThrows(IllegalStateException.class, c::duplicate, "ABSENT cannot become DUPLICATED");
    }

    @Test
    void keptDivertedOnPurposeIsAStateOfItsOwnAndTheNextReleaseRestores() {
        TableSnapshot before = fake.snapshot();
        StreamClaim c = claimOfStdin();
        c.duplicate();
        c.divert();
        assertTrue(c.keepDiverted("kept for the test"));
        assertEquals(ClaimState.KEPT_DIVERTED, c.state());
        assertTrue(c.isolated());
        assertTrue(c.release(true));
        assertEquals(ClaimState.RELEASED, c.state());
        assertEquals(before, fake.snapshot());
        assertFalse(c.keepDiverted("a released claim is not kept"));
    }
}
