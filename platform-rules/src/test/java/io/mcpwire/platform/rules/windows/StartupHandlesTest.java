package io.mcpwire.platform.rules.windows;

import static io.mcpwire.platform.rules.windows.ScriptedWin32.STDERR_HANDLE;
import static io.mcpwire.platform.rules.windows.ScriptedWin32.STDOUT_HANDLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JVM's start-up handle values kept naming what fd 0 to 2 name ({@link StartupHandles}): read
 * once from the slots; a freed value taken back by duplicating until the allocator hands it out,
 * then protected from close; a value held closed only while it carries the mark; a value another
 * object took left alone; a miss said once, retried at every later follow, and said again when
 * it is taken back at last.
 */
class StartupHandlesTest {
    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final StartupHandles startup = new StartupHandles();

    /** The calls since the values were read. */
    private List<String> callsAfterCapture() {
        List<String> calls = w.calls();
        return calls.subList(3, calls.size());
    }

    @Test
    void theValuesAreTheSlotsReadOnceAndAnInvalidSlotHoldsNone() {
        w.slot(0, -1);
        startup.capture(w);
        startup.capture(w);
        assertEquals(List.of("GetStdHandle(STD_INPUT_HANDLE)", "GetStdHandle(STD_OUTPUT_HANDLE)", "GetStdHandle(STD_ERROR_HANDLE)"),
                w.calls());
        assertTrue(startup.isStartupValue(STDOUT_HANDLE) && startup.isStartupValue(STDERR_HANDLE));
        assertFalse(startup.isStartupValue(ScriptedWin32.STDIN_HANDLE) || startup.isStartupValue(0) || startup.isStartupValue(-1));
        w.open(0, 0x2000, "nul");
        assertEquals(List.of(), startup.follow(w, 0));
        assertEquals(List.of("_get_osfhandle(0)"), callsAfterCapture(), "the JVM holds nothing for fd 0: nothing to follow");
    }

    @Test
    void aValueThatNamesTheDescriptorsFileAlreadyIsLeftAlone() {
        startup.capture(w);
        assertEquals(List.of(), startup.follow(w, 1));
        w.open(1, 0x2000, "pipe:client-out"); // another handle on the same pipe
        w.handle(STDOUT_HANDLE, "pipe:client-out");
        assertEquals(List.of(), startup.follow(w, 1));
        assertEquals(List.of("_get_osfhandle(1)", "_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2000)"), callsAfterCapture());
    }

    @Test
    void aFreeValueIsTakenBackEveryMissClosedAfterAndThenProtectedFromClose() {
        startup.capture(w);
        w.open(1, 0x2000, "nul");
        w.nextValues(0x3000, 0x3004, STDOUT_HANDLE);
        assertEquals(List.of(), startup.follow(w, 1));
        assertEquals(List.of("_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2000)", "CompareObjectHandles(0x14, 0x14)",
                "DuplicateHandle(0x2000)", "DuplicateHandle(0x2000)", "DuplicateHandle(0x2000)",
                "SetHandleInformation(0x14, PROTECT_FROM_CLOSE, 1)", "CloseHandle(0x3000)", "CloseHandle(0x3004)"), callsAfterCapture());
        assertEquals("nul", w.objectNamedBy(STDOUT_HANDLE));
        assertTrue(w.protectedFromClose(STDOUT_HANDLE));
        assertEquals(null, w.objectNamedBy(0x3000), "no miss left open");
    }

    @Test
    void aValueHeldIsUnprotectedAndClosedBeforeItIsTakenBackForTheNextFile() {
        startup.capture(w);
        w.open(1, 0x2000, "nul");
        w.nextValues(STDOUT_HANDLE);
        startup.follow(w, 1);
        w.forgetCalls();
        w.open(1, 0x2004, "pipe:client-out");
        w.nextValues(STDOUT_HANDLE);
        assertEquals(List.of(), startup.follow(w, 1));
        assertEquals(List.of("_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2004)", "GetHandleInformation(0x14)",
                "SetHandleInformation(0x14, PROTECT_FROM_CLOSE, 0)", "CloseHandle(0x14)", "CompareObjectHandles(0x14, 0x14)",
                "DuplicateHandle(0x2004)", "SetHandleInformation(0x14, PROTECT_FROM_CLOSE, 1)"), w.calls());
        assertEquals("pipe:client-out", w.objectNamedBy(STDOUT_HANDLE));
    }

    @Test
    void aValueNoLongerMarkedIsNeverClosedForItNamesAnotherObjectNow() {
        startup.capture(w);
        w.open(1, 0x2000, "nul");
        w.nextValues(STDOUT_HANDLE);
        startup.follow(w, 1);
        w.freed(STDOUT_HANDLE); // FileDescriptor.out closed, the value reused
        w.handle(STDOUT_HANDLE, "file:another library's log");
        w.open(1, 0x2004, "pipe:client-out");
        w.forgetCalls();
        List<String> notes = startup.follow(w, 1);
        assertEquals(List.of("_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2004)", "GetHandleInformation(0x14)",
                "CompareObjectHandles(0x14, 0x14)"), w.calls(), "neither unprotected nor closed: it is another's");
        assertEquals("file:another library's log", w.objectNamedBy(STDOUT_HANDLE));
        assertEquals(List.of("fd 1: handle 0x14 that the JVM holds for System.out names another object, which took the value while it "
                + "was free; a child started with inheritIO() gets that object rather than fd 1's file until it is closed (tried again at "
                + "each later move)"), notes);
    }

    @Test
    void aMissIsSaidOnceRetriedAtTheNextFollowOfAnyDescriptorAndSaidAgainWhenTakenBack() {
        startup.capture(w);
        w.open(1, 0x2000, "nul");
        w.fails("DuplicateHandle", ScriptedWin32.ERROR_NOT_ENOUGH_MEMORY);
        assertEquals(List.of("fd 1: handle 0x14 that the JVM holds for System.out could not be made to name fd 1's file (DuplicateHandle "
                + "failed: GetLastError 8 ERROR_NOT_ENOUGH_MEMORY); until a later move takes it back, a child started with inheritIO() "
                + "gets whatever handle takes that value next, or none, and System.out, where it is not swapped for the session, writes "
                + "there"), startup.follow(w, 1));
        w.fails("DuplicateHandle", ScriptedWin32.ERROR_NOT_ENOUGH_MEMORY);
        assertEquals(List.of(), startup.retryMissed(w), "tried again, quietly");
        w.nextValues(STDOUT_HANDLE);
        w.forgetCalls();
        assertEquals(List.of("fd 1: handle 0x14 that the JVM holds for System.out was taken back at last and names fd 1's file again"),
                startup.follow(w, 2));
        assertEquals(List.of("_get_osfhandle(2)", "_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2000)",
                "CompareObjectHandles(0x14, 0x14)", "DuplicateHandle(0x2000)", "SetHandleInformation(0x14, PROTECT_FROM_CLOSE, 1)"),
                w.calls(), "fd 2's own follow first, then fd 1's missed value");
        w.forgetCalls();
        startup.follow(w, 2);
        assertEquals(List.of("_get_osfhandle(2)"), w.calls(), "no longer missed");
    }

    @Test
    void aValueTheAllocatorNeverHandsOutIsGivenUpAfterItsAttemptsEveryMissClosed() {
        startup.capture(w);
        w.open(1, 0x2000, "nul");
        List<String> notes = startup.follow(w, 1);
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).contains("(" + StartupHandles.ATTEMPTS + " tries gave other values)"), notes.get(0));
        List<String> calls = w.calls();
        assertEquals(StartupHandles.ATTEMPTS, calls.stream().filter(c -> c.equals("DuplicateHandle(0x2000)")).count());
        assertEquals(StartupHandles.ATTEMPTS, calls.stream().filter(c -> c.startsWith("CloseHandle(")).count());
        assertEquals(calls.size() - StartupHandles.ATTEMPTS, calls.indexOf("CloseHandle(0x1000)"), "closed after the last try");
    }

    @Test
    void fd1AndFd2OnOneValueAreNotAMissWhileTheOtherStillHoldsIt() {
        w.open(2, STDOUT_HANDLE, "pipe:client-out"); // a parent that merged them: 2>&1 on one value
        w.slot(2, STDOUT_HANDLE);
        startup.capture(w);
        w.open(1, 0x2000, "nul");
        assertEquals(List.of(), startup.follow(w, 1), "fd 2 moves next, and then the value is free to take back");
        assertEquals(List.of("_get_osfhandle(1)", "CompareObjectHandles(0x14, 0x2000)", "CompareObjectHandles(0x14, 0x14)",
                "_get_osfhandle(2)"), callsAfterCapture());
    }

    @Test
    void aDescriptorWithNoHandleHasNothingToFollow() {
        startup.capture(w);
        w.closed(1);
        assertEquals(List.of(), startup.follow(w, 1));
        assertEquals(List.of("_get_osfhandle(1)"), callsAfterCapture());
    }
}
