package io.mcpwire.platform.rules.windows;

import static io.mcpwire.platform.rules.windows.ScriptedWin32.ERROR_INVALID_HANDLE;
import static io.mcpwire.platform.rules.windows.ScriptedWin32.STDOUT_HANDLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The moves of a standard descriptor over a scripted {@link Win32}: {@code _dup2} and
 * {@code _close} on the descriptor's lane, the slot rebound with {@code SetStdHandle}, the JVM's
 * start-up value taken back, all of a move as one pinned step; a claim of fd 1 and its restore
 * call for call; and the error each failing call gives.
 */
class WindowsMovesTest {
    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final WindowsPlatform rules = w.platform();

    /** The engine's diversion of fd 1 onto {@code d}: the move, then the duties. */
    private void divert(int d) throws DescriptorException {
        rules.moveStandard(1, () -> {
            rules.duplicateOnto(d, 1);
            rules.close(d);
            rules.rebindStandardHandle(1);
            rules.followStartupHandle(1);
        });
    }

    /** The engine's restore of fd 1 from its private duplicate {@code p}. */
    private void restore(int p) throws DescriptorException {
        rules.moveStandard(1, () -> {
            rules.duplicateOnto(p, 1);
            rules.rebindStandardHandle(1);
            rules.followStartupHandle(1);
        });
    }

    /**
     * A start-up value the take-back missed is tried again first in the next move, before that
     * move's {@code _dup2} makes a handle that could take the free value (and leave System.out's
     * value naming the wire while claimed).
     */
    @Test
    void aMissedStartupValueIsTakenBackBeforeTheNextMovesDup2() throws Exception {
        int p = rules.duplicateAboveStandard(1);
        int d = rules.openNullDevice(Access.WRITE);
        w.nextValues(0x2000);
        w.fails("DuplicateHandle", ScriptedWin32.ERROR_NOT_ENOUGH_MEMORY);
        divert(d); // System.out's value freed by _dup2 and missed
        w.forgetCalls();
        w.nextValues(STDOUT_HANDLE, 0x2008); // the first new handle takes the free start-up value
        restore(p);
        List<String> calls = w.calls();
        int retry = calls.indexOf("DuplicateHandle(0x2000)");
        assertTrue(retry >= 0 && retry < calls.indexOf("_dup2(3, 1)"), () -> "the missed value retried before the move: " + calls);
        assertEquals(0x2008, w.slotOf(1), "_dup2's handle is another value");
    }

    @Test
    void aClaimOfFd1AndItsRestoreMakeTheseCallsInThisOrder() throws Exception {
        int p = rules.duplicateAboveStandard(1);
        int d = rules.openNullDevice(Access.WRITE);
        assertEquals(List.of(3, 4), List.of(p, d));
        w.forgetCalls();
        w.nextValues(0x2000, 0x2004, STDOUT_HANDLE); // _dup2's new handle; then the take-back misses once, and hits
        divert(d);
        assertEquals(List.of(
                "SetThreadAffinityMask(this processor)",
                "_dup2(4, 1)", "_close(4)",
                "_get_osfhandle(1)", "SetStdHandle(STD_OUTPUT_HANDLE, 0x2000)",
                "_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2000)", "CompareObjectHandles(0x14, 0x14)",
                "DuplicateHandle(0x2000)", "DuplicateHandle(0x2000)", "SetHandleInformation(0x14, PROTECT_FROM_CLOSE, 1)",
                "CloseHandle(0x2004)",
                "SetThreadAffinityMask(0xff)"), w.calls());
        assertEquals("mcpwire-windows-fd1", w.threadOf("CloseHandle(0x2004)"), "the whole move on fd 1's lane, pinned");
        assertEquals(0x2000, w.slotOf(1), "a native child gets the diversion");
        assertEquals("nul", w.objectNamedBy(STDOUT_HANDLE), "System.out's value, which an inheritIO() child gets, too");
        assertTrue(w.protectedFromClose(STDOUT_HANDLE), "held: closing FileDescriptor.out cannot free it");

        w.forgetCalls();
        w.nextValues(0x2008, STDOUT_HANDLE);
        restore(p);
        rules.close(p);
        assertEquals(List.of(
                "SetThreadAffinityMask(this processor)",
                "_dup2(3, 1)",
                "_get_osfhandle(1)", "SetStdHandle(STD_OUTPUT_HANDLE, 0x2008)",
                "_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2008)",
                "GetHandleInformation(0x14)", "SetHandleInformation(0x14, PROTECT_FROM_CLOSE, 0)", "CloseHandle(0x14)",
                "CompareObjectHandles(0x14, 0x14)", "DuplicateHandle(0x2008)", "SetHandleInformation(0x14, PROTECT_FROM_CLOSE, 1)",
                "SetThreadAffinityMask(0xff)",
                "_close(3)"), w.calls(), "the value held is unprotected before it is closed, then taken back");
        assertEquals("pipe:client-out", w.objectOf(1));
        assertEquals(0x2008, w.slotOf(1));
        assertEquals("pipe:client-out", w.objectNamedBy(STDOUT_HANDLE), "System.out reaches the client again");
    }

    @Test
    void aMoveHoldsTheChildStartMonitorThroughAGateThreadNotItsOwn() throws Exception {
        boolean[] laneHoldsIt = new boolean[1];
        ChildStartProbe[] probe = new ChildStartProbe[1];
        w.during("_dup2(3, 1)", () -> {
            laneHoldsIt[0] = Thread.holdsLock(w.childStarts);
            probe[0] = ChildStartProbe.tryStart(w);
        });
        w.open(3, 0x40, "nul");
        rules.moveStandard(1, () -> rules.duplicateOnto(3, 1));
        assertFalse(laneHoldsIt[0], "a lane thread that waits too long must not keep a child start waiting");
        assertTrue(probe[0].wasKeptOut(), "a Java child start waits while the move runs");
        probe[0].awaitStarted();
        assertEquals(List.of("_dup2(3, 1)", "SetThreadAffinityMask(0xff)", "child start"),
                w.actions().subList(w.actions().indexOf("_dup2(3, 1)"), w.actions().size()));
    }

    @Test
    void dup2OntoAStandardDescriptorRunsOnItsLaneAndElsewhereOnTheCallingThread() throws Exception {
        w.open(3, 0x40, "nul");
        rules.duplicateOnto(3, 2);
        rules.duplicateOnto(3, 7);
        assertEquals(List.of("_dup2(3, 2)", "_dup2(3, 7)"), w.actions());
        assertEquals("mcpwire-windows-fd2", w.threadOf("_dup2(3, 2)"));
        assertEquals(Thread.currentThread().getName(), w.threadOf("_dup2(3, 7)"));
    }

    @Test
    void aFailedDup2NamesTheTargetTheCallAndTheErrnoAndSaysTheTargetMayBeClosed() {
        w.fails("_dup2", WindowsErrors.EBADF);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicateOnto(3, 1));
        assertEquals("_dup2(3, 1) failed on fd 1: errno 9 EBADF (Bad file descriptor); fd 1 may have been closed before the failure "
                + "[error 9]", e.getMessage());
        assertEquals(1, e.descriptor());
        assertEquals(WindowsErrors.EBADF, e.errorCode());
    }

    @Test
    void closeOfAStandardDescriptorRunsOnItsLaneAndAFailureNamesIt() throws Exception {
        rules.close(0);
        assertEquals("mcpwire-windows-fd0", w.threadOf("_close(0)"));
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.close(9));
        assertEquals("_close(9) failed on fd 9: errno 9 EBADF (Bad file descriptor) [error 9]", e.getMessage());
        assertEquals(List.of("_close(0)", "_close(9)"), w.actions(), "never retried");
    }

    @Test
    void rebindingSetsTheSlotToTheDescriptorsHandleOnTheCallingThread() throws Exception {
        w.open(1, 0x2000, "nul");
        rules.rebindStandardHandle(1);
        assertEquals(List.of("_get_osfhandle(1)", "SetStdHandle(STD_OUTPUT_HANDLE, 0x2000)"), w.calls().subList(3, w.calls().size()));
        assertEquals(0x2000, w.slotOf(1));
    }

    @Test
    void rebindingAClosedDescriptorFailsBeforeTheSlotIsTouched() {
        w.closed(2);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.rebindStandardHandle(2));
        assertEquals("rebindStandardHandle(2) failed on fd 2: _get_osfhandle(2): errno 9 EBADF (Bad file descriptor) [error 9]",
                e.getMessage());
        assertFalse(w.calls().stream().anyMatch(c -> c.startsWith("SetStdHandle")), w.calls().toString());
        assertEquals(ScriptedWin32.STDERR_HANDLE, w.slotOf(2));
    }

    @Test
    void aFailedSetStdHandleNamesTheSlotAndTheWin32Error() {
        w.fails("SetStdHandle", ERROR_INVALID_HANDLE);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.rebindStandardHandle(0));
        assertEquals("SetStdHandle(STD_INPUT_HANDLE) failed on fd 0: GetLastError 6 ERROR_INVALID_HANDLE [error 6]", e.getMessage());
    }

    @Test
    void theStandardOnlyCallsRefuseOtherDescriptorsWithoutACall() {
        DescriptorException rebind = assertThrows(DescriptorException.class, () -> rules.rebindStandardHandle(3));
        assertEquals("rebindStandardHandle(3) failed on fd 3: not a standard descriptor", rebind.getMessage());
        DescriptorException move = assertThrows(DescriptorException.class, () -> rules.moveStandard(3, () -> { }));
        assertEquals("moveStandard(3) failed on fd 3: not a standard descriptor", move.getMessage());
        assertEquals(List.of(), w.calls());
    }

    @Test
    void whatAMovesFollowHasToSayIsLoggedOnceTheMoveIsOver() throws Exception {
        w.fails("DuplicateHandle", ScriptedWin32.ERROR_NOT_ENOUGH_MEMORY);
        String note = "fd 1: handle 0x14 that the JVM holds for System.out could not be made to name fd 1's file (DuplicateHandle "
                + "failed: GetLastError 8 ERROR_NOT_ENOUGH_MEMORY)";
        String[] duringTheMove = new String[1];
        try (CapturedLog log = CapturedLog.start()) {
            w.open(3, 0x40, "nul");
            rules.moveStandard(1, () -> {
                rules.duplicateOnto(3, 1);
                rules.followStartupHandle(1);
                duringTheMove[0] = log.text();
            });
            assertFalse(duringTheMove[0].contains(note), "no log line while the child-start monitor is held: " + duringTheMove[0]);
            assertTrue(log.text().contains(note), log.text());
        }
    }

    @Test
    void aFollowOutsideAMoveLogsAtOnceAndAFollowOfAnotherDescriptorIsLoggedNotThrown() throws Exception {
        w.open(2, 0x2000, "nul");
        w.fails("DuplicateHandle", ScriptedWin32.ERROR_NOT_ENOUGH_MEMORY);
        try (CapturedLog log = CapturedLog.start()) {
            rules.followStartupHandle(2);
            assertTrue(log.text().contains("fd 2: handle 0x18 that the JVM holds for System.err could not be made to name fd 2's file"),
                    log.text());
            rules.followStartupHandle(5);
            assertTrue(log.text().contains("the JVM's start-up handle for fd 5 was not followed (followStartupHandle(5) failed on "
                    + "fd 5: not a standard descriptor)"), log.text());
        }
    }

    @Test
    void aReadStrandedOnTheWireIsCancelledOnceFd0HasLeftIt() throws Exception {
        w.open(0, 0x2000, "nul");
        w.open(3, 0x1000, "pipe:client-in");
        w.answer("CancelIoEx", 1, 0);
        try (CapturedLog log = CapturedLog.start()) {
            rules.cancelStrandedReads(0, 3);
            assertEquals(List.of("_get_osfhandle(0)", "_get_osfhandle(3)", "CompareObjectHandles(0x1000, 0x2000)", "CancelIoEx(0x1000)"),
                    w.calls().subList(3, w.calls().size()), "CancelIoEx on the private duplicate: every read on the wire's file");
            assertTrue(log.text().contains("its read was cancelled (CancelIoEx)"), log.text());
        }
    }

    @Test
    void nothingIsCancelledWhileFd0StillNamesTheWireNorForAnotherDescriptorNorWithoutAPrivateDuplicate() {
        w.open(3, 0x1000, "pipe:client-in");
        rules.cancelStrandedReads(0, 3);
        rules.cancelStrandedReads(1, 3);
        rules.cancelStrandedReads(0, -1);
        w.closed(3);
        rules.cancelStrandedReads(0, 3);
        assertFalse(w.calls().stream().anyMatch(c -> c.startsWith("CancelIoEx")), w.calls().toString());
    }
}
