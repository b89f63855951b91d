package io.mcpwire.stdio.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.test.FakeProcess;
import org.junit.jupiter.api.Test;

/** A private duplicate is given up once: its number, once closed, is never used or closed again, even after the OS handed it out anew. */
class PrivateDuplicateTest {
    private final FakeProcess fake = FakeProcess.withPipes();

    @Test
    void onceClosedItsNumberIsNeverClosedAgainThoughAnotherFileNowHasIt() throws Exception {
        int p = fake.duplicateAboveStandard(0);
        PrivateDuplicate duplicate = new PrivateDuplicate(0, p);
        assertEquals(p, duplicate.number());
        duplicate.close(fake, "the test's duplicate");
        assertEquals("closed", fake.describe(p));

        int reused = fake.openNullDevice(Access.READ); // the lowest free number: the one just closed
        assertEquals(p, reused, "the fake hands out the lowest free number, as POSIX does");
        assertThrows(IllegalStateException.class, duplicate::number);
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> duplicate.close(fake, "again"));
        assertTrue(twice.getMessage().contains("private fd " + p), twice.getMessage());
        assertEquals("null device (read)", fake.describe(reused), "the file that now has the number is still open");
    }

    @Test
    void leftOpenItStaysOpenAndIsTheClaimsNoMore() throws Exception {
        int p = fake.duplicateAboveStandard(1);
        PrivateDuplicate duplicate = new PrivateDuplicate(1, p);
        duplicate.leaveOpen();
        assertTrue(fake.refersToWireOf(p, 1), "still open on the wire");
        assertThrows(IllegalStateException.class, duplicate::number);
        assertThrows(IllegalStateException.class, () -> duplicate.close(fake, "after leaving it open"));
        assertTrue(fake.refersToWireOf(p, 1), "a refused close closes nothing");
    }
}
