package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The transport's one lifecycle moves only along its table, and an illegal move fails loudly. */
class LifecycleTest {
    @Test
    void theTableNamesEveryPhaseAndTheWholePathIsLegal() {
        assertEquals(EnumSet.allOf(Lifecycle.Phase.class), Lifecycle.MOVES.keySet());
        Lifecycle l = new Lifecycle();
        assertTrue(l.start());
        assertFalse(l.start(), "started once");
        assertFalse(l.closeUnstarted(), "a started transport is not closed as unstarted");
        assertTrue(l.beginClose());
        assertFalse(l.beginClose(), "one winner");
        assertTrue(l.closingOnThisThread());
        assertTrue(l.acceptsSends(), "DRAINING still takes sends");
        l.stopSends();
        assertFalse(l.acceptsSends());
        l.markClosed();
        assertEquals(Lifecycle.Phase.CLOSED, l.phase());
        l.awaitClosed(); // returns at once
    }

    @Test
    void aCloseBeforeTheStartEndsItAndTheStartIsRefused() {
        Lifecycle l = new Lifecycle();
        assertTrue(l.closeUnstarted());
        assertFalse(l.start());
        assertFalse(l.beginClose());
        l.awaitClosed(); // returns at once
    }

    @Test
    void anIllegalMoveThrowsNamingThePhases() {
        Lifecycle l = new Lifecycle();
        IllegalStateException e = assertThrows(IllegalStateException.class, l::stopSends);
        assertTrue(e.getMessage().contains("BUILT") && e.getMessage().contains("DRAINING"), e.getMessage());
        l.start();
        assertThrows(IllegalStateException.class, l::markClosed, "SERVING cannot close without draining and stopping");
    }

    @Test
    void aCloseThatFailedBeforeStoppingTheSendsStillEndsAndReleasesItsWaiters() {
        Lifecycle l = new Lifecycle();
        l.start();
        l.beginClose();
        l.markClosed(); // an Error thrown while draining: the close's finally still ends it
        assertEquals(Lifecycle.Phase.CLOSED, l.phase());
        l.awaitClosed(); // returns at once
    }
}
