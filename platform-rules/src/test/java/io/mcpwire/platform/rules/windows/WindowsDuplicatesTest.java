package io.mcpwire.platform.rules.windows;

import static io.mcpwire.platform.rules.windows.ScriptedWin32.EMFILE;
import static io.mcpwire.platform.rules.windows.ScriptedWin32.ERROR_INVALID_HANDLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PipeEnds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The private duplicates and the pipe over a scripted {@link Win32}: {@code _dup} then
 * {@code SetHandleInformation}, on fd 0 to 2 on the descriptor's lane, never on a start-up value,
 * never left on 0, 1 or 2; and what each failing call leaves (nothing).
 */
class WindowsDuplicatesTest {
    private static final List<String> CAPTURE = List.of(
            "GetStdHandle(STD_INPUT_HANDLE)", "GetStdHandle(STD_OUTPUT_HANDLE)", "GetStdHandle(STD_ERROR_HANDLE)");

    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final WindowsPlatform rules = w.platform();

    /** {@code first}, then {@code then}. */
    private static List<String> after(List<String> first, String... then) {
        List<String> all = new ArrayList<>(first);
        Collections.addAll(all, then);
        return all;
    }

    @Test
    void thePrivateDuplicateIsADupMadeUninheritedOnTheDescriptorsLaneAfterTheStartUpValuesAreRead() throws Exception {
        assertEquals(3, rules.duplicateAboveStandard(1));
        assertEquals(after(CAPTURE, "_get_osfhandle(1)", "_dup(1)", "_get_osfhandle(3)", "SetHandleInformation(0x1000, INHERIT, 0)",
                "_get_osfhandle(3)"), w.calls(), "the start-up values first, before anything moves; then no query of the handle");
        assertEquals("mcpwire-windows-fd1", w.threadOf("_dup(1)"), "_dup(1) can wait for the C runtime's lock of fd 1");
        assertFalse(w.inheritable(0x1000), "no child inherits the wire");
        assertEquals("pipe:client-out", w.objectOf(3));
    }

    @Test
    void aDuplicateAboveTheStandardRangeIsMadeOnTheCallingThreadHoldingTheChildStartMonitor() throws Exception {
        w.open(5, 0x40, "pipe:drain");
        boolean[] monitorHeld = new boolean[1];
        w.during("_dup(5)", () -> monitorHeld[0] = Thread.holdsLock(w.childStarts));
        assertEquals(3, rules.duplicate(5));
        assertEquals(after(CAPTURE, "_get_osfhandle(5)", "_dup(5)", "_get_osfhandle(3)", "SetHandleInformation(0x1000, INHERIT, 0)"),
                w.calls());
        assertEquals(Thread.currentThread().getName(), w.threadOf("_dup(5)"));
        assertTrue(monitorHeld[0], "no Java child starts while the duplicate is still inheritable");
    }

    @Test
    void theStartUpValuesAreReadOncePerTable() throws Exception {
        rules.duplicate(0);
        w.forgetCalls();
        rules.duplicate(0);
        w.platformOn(rules.descriptorTable()).duplicate(0);
        assertFalse(w.calls().stream().anyMatch(c -> c.startsWith("GetStdHandle")),
                "a second call, or a second provider of the table, must not read the slots as the first claim left them: " + w.calls());
    }

    @Test
    void aDuplicateThatLandsOnAStandardDescriptorIsClosedAgainAndRefused() {
        w.closed(1);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicateAboveStandard(0));
        assertEquals("duplicateAboveStandard(0) failed on fd 0: the duplicate landed on fd 1, a standard descriptor (closed it again)",
                e.getMessage());
        assertEquals("_close(1)", w.actions().get(w.actions().size() - 1));
        assertEquals(Set.of(0, 2), w.openDescriptors());
    }

    @Test
    void aDescriptorThatIsNotOpenIsRefusedBeforeAnyDup() {
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicate(7));
        assertEquals("duplicate(7) failed on fd 7: _get_osfhandle(7): errno 9 EBADF (Bad file descriptor) [error 9]", e.getMessage());
        assertEquals(WindowsErrors.EBADF, e.errorCode());
        assertFalse(w.calls().contains("_dup(7)"), w.calls().toString());
    }

    @Test
    void aFailedDupNamesTheDescriptorTheCallAndTheErrnoAndAllocatesNothing() {
        w.fails("_dup(0)", EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicate(0));
        assertEquals("_dup(0) failed on fd 0: errno 24 EMFILE (Too many open files) [error 24]", e.getMessage());
        assertEquals(List.of("_dup(0)"), w.actions());
        assertEquals(Set.of(0, 1, 2), w.openDescriptors());
    }

    @Test
    void aDuplicateThatCannotBeMadeUninheritedIsClosedAgainAndTheErrorIsSetHandleInformations() {
        w.fails("SetHandleInformation", ERROR_INVALID_HANDLE);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicate(0));
        assertEquals("SetHandleInformation(fd 3, not inherited) failed on fd 0: GetLastError 6 ERROR_INVALID_HANDLE [error 6]",
                e.getMessage());
        assertEquals(List.of("_dup(0)", "SetHandleInformation(0x1000, INHERIT, 0)", "_close(3)"), w.actions());
        assertEquals(Set.of(0, 1, 2), w.openDescriptors(), "an inheritable duplicate of the wire is never left open");
    }

    @Test
    void aDuplicateThatTakesAFreeStartUpValueIsSetAsideWhileAnotherIsMadeThenClosed() throws Exception {
        w.open(1, 0x2000, "nul"); // fd 1 diverted: the JVM's value for it is free
        w.nextValues(ScriptedWin32.STDOUT_HANDLE); // and handed out next
        assertEquals(4, rules.duplicate(0));
        assertEquals(after(CAPTURE, "_get_osfhandle(0)", "_dup(0)", "_get_osfhandle(3)", "SetHandleInformation(0x14, INHERIT, 0)",
                "_get_osfhandle(3)", "_get_osfhandle(0)", "_dup(0)", "_get_osfhandle(4)", "SetHandleInformation(0x1000, INHERIT, 0)",
                "_get_osfhandle(4)", "_close(3)"), w.calls());
        assertEquals(null, w.objectNamedBy(ScriptedWin32.STDOUT_HANDLE), "System.out's value never names the wire while claimed");
    }

    @Test
    void whenTheSecondDuplicateFailsTheOneSetAsideIsClosed() {
        w.open(1, 0x2000, "nul");
        w.nextValues(ScriptedWin32.STDOUT_HANDLE);
        w.failsAt("_dup(0)", 2, EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicate(0));
        assertEquals("_dup(0) failed on fd 0: errno 24 EMFILE (Too many open files) [error 24]", e.getMessage());
        assertEquals(List.of("_dup(0)", "SetHandleInformation(0x14, INHERIT, 0)", "_dup(0)", "_close(3)"), w.actions());
        assertEquals(Set.of(0, 1, 2), w.openDescriptors());
    }

    @Test
    void aPipeIsOneUninheritedBinaryPipeOfAPosixPipesSize() throws Exception {
        PipeEnds ends = rules.pipe();
        assertEquals(new PipeEnds(3, 4), ends);
        assertEquals(after(CAPTURE, "_pipe(65536, 0x8080)"), w.calls());
    }

    @Test
    void aPipeEndOnAStandardDescriptorIsMovedAboveThemAndTheDescriptorFreedAgain() throws Exception {
        w.closed(0);
        assertEquals(new PipeEnds(4, 3), rules.pipe());
        assertEquals(List.of("_pipe(65536, 0x8080)", "_dup(0)", "SetHandleInformation(0x1008, INHERIT, 0)", "_close(0)"), w.actions());
        assertEquals("mcpwire-windows-fd0", w.threadOf("_dup(0)"));
        assertEquals(Set.of(1, 2, 3, 4), w.openDescriptors());
    }

    @Test
    void aFailedPipeNamesTheCallAndTheErrnoAndMakesNothingElse() {
        w.fails("_pipe", EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, rules::pipe);
        assertEquals("_pipe(65536, _O_BINARY|_O_NOINHERIT) failed: errno 24 EMFILE (Too many open files) [error 24]", e.getMessage());
        assertEquals(after(CAPTURE, "_pipe(65536, 0x8080)"), w.calls());
    }

    @Test
    void whenTheReadEndCannotBeMovedBothEndsAreClosedOnce() {
        w.closed(0);
        w.fails("_dup(0)", EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, rules::pipe);
        assertEquals("_dup(0)", e.operation());
        assertEquals(List.of("_pipe(65536, 0x8080)", "_dup(0)", "_close(0)", "_close(3)"), w.actions());
        assertEquals(Set.of(1, 2), w.openDescriptors());
    }

    @Test
    void whenTheWriteEndCannotBeMovedEveryDescriptorThePipeMadeIsClosedOnce() {
        w.closed(0); // _pipe gives fd 0 and fd 1; the read end moves to fd 3
        w.closed(1);
        w.fails("_dup(1)", EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, rules::pipe);
        assertEquals("_dup(1)", e.operation());
        assertEquals(List.of("_pipe(65536, 0x8080)", "_dup(0)", "SetHandleInformation(0x1008, INHERIT, 0)", "_close(0)",
                "_dup(1)", "_close(1)", "_close(3)"), w.actions(),
                "a second _close(1) could close what another thread opened on fd 1 meanwhile");
        assertEquals(Set.of(2), w.openDescriptors());
    }
}
