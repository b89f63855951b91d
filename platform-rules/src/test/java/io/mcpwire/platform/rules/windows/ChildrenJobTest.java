package io.mcpwire.platform.rules.windows;

import static io.mcpwire.platform.rules.windows.ScriptedWin32.ERROR_ACCESS_DENIED;
import static io.mcpwire.platform.rules.windows.ScriptedWin32.ERROR_NOT_ENOUGH_MEMORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job that ties the process' children to it, over a scripted {@link Win32}: made with
 * kill-on-close, the process assigned, its handle kept; made once per table; and a failing step
 * names its call and closes the job it made.
 */
class ChildrenJobTest {
    private static final List<String> TIE = List.of("CreateJobObjectW(NULL, NULL)", "SetInformationJobObject(0x1000, KILL_ON_JOB_CLOSE|BREAKAWAY_OK)",
            "AssignProcessToJobObject(0x1000, this process)");

    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final WindowsPlatform rules = w.platform();

    @Test
    void aJobThatKillsOnCloseIsMadeAndTheProcessPutInItItsHandleKept() throws Exception {
        assertTrue(rules.tieChildrenToProcess());
        assertEquals(TIE, w.calls());
        assertEquals("job", w.objectNamedBy(0x1000), "never closed: its close at the process' end ends the children");
        assertFalse(w.inheritable(0x1000), "no child holds the job open after this process ends");
    }

    @Test
    void theJobIsMadeOncePerTableWhicheverProviderAsks() throws Exception {
        rules.tieChildrenToProcess();
        w.forgetCalls();
        assertTrue(rules.tieChildrenToProcess());
        assertTrue(w.platformOn(rules.descriptorTable()).tieChildrenToProcess());
        assertEquals(List.of(), w.calls(), "a process cannot leave a job: a second would only nest another");
    }

    @Test
    void aJobThatCannotBeMadeIsAnErrorNamingTheCall() {
        w.fails("CreateJobObjectW", ERROR_NOT_ENOUGH_MEMORY);
        DescriptorException e = assertThrows(DescriptorException.class, rules::tieChildrenToProcess);
        assertEquals("CreateJobObjectW failed: GetLastError 8 ERROR_NOT_ENOUGH_MEMORY [error 8]", e.getMessage());
        assertEquals(List.of("CreateJobObjectW(NULL, NULL)"), w.calls());
    }

    @Test
    void aFailingLimitOrAssignmentClosesTheJobItMadeAndALaterTieTriesAgain() throws Exception {
        w.fails("SetInformationJobObject", ERROR_ACCESS_DENIED);
        DescriptorException e = assertThrows(DescriptorException.class, rules::tieChildrenToProcess);
        assertEquals("SetInformationJobObject(KILL_ON_JOB_CLOSE|BREAKAWAY_OK) failed: GetLastError 5 ERROR_ACCESS_DENIED [error 5]", e.getMessage());
        assertEquals(List.of(TIE.get(0), TIE.get(1), "CloseHandle(0x1000)"), w.calls());
        assertEquals(null, w.objectNamedBy(0x1000), "nothing left behind");

        w.forgetCalls();
        w.fails("AssignProcessToJobObject", ERROR_ACCESS_DENIED);
        e = assertThrows(DescriptorException.class, rules::tieChildrenToProcess);
        assertEquals("AssignProcessToJobObject failed: GetLastError 5 ERROR_ACCESS_DENIED [error 5]", e.getMessage(),
                "as in a job that forbids nesting, before Windows 8");
        assertEquals("CloseHandle", w.calls().get(w.calls().size() - 1).replaceAll("\\(.*", ""));

        w.forgetCalls();
        assertTrue(rules.tieChildrenToProcess(), "nothing was tied: the next claim tries again");
        assertEquals(3, w.calls().size());
    }

    /**
     * {@code JOBOBJECT_EXTENDED_LIMIT_INFORMATION} on x64, laid out from its members: the basic
     * limits (two {@code LARGE_INTEGER}s, {@code LimitFlags}, two {@code SIZE_T}s, a {@code DWORD},
     * a {@code ULONG_PTR}, two {@code DWORD}s), {@code IO_COUNTERS} (six {@code ULONGLONG}s), four
     * {@code SIZE_T}s.
     */
    @Test
    void theExtendedLimitsAreLaidOutAsX64Has() {
        int[][] basic = {{8, 8}, {8, 8}, {4, 4}, {8, 8}, {8, 8}, {4, 4}, {8, 8}, {4, 4}, {4, 4}}; // {size, alignment}
        int offset = 0;
        int limitFlags = -1;
        for (int i = 0; i < basic.length; i++) {
            offset = align(offset, basic[i][1]);
            if (i == 2) {
                limitFlags = offset;
            }
            offset += basic[i][0];
        }
        offset = align(offset, 8);
        assertEquals(64, offset, "JOBOBJECT_BASIC_LIMIT_INFORMATION");
        offset += 6 * 8 + 4 * 8;
        assertEquals(Win32.JOB_LIMIT_FLAGS_OFFSET, limitFlags);
        assertEquals(Win32.JOB_EXTENDED_LIMITS_BYTES, offset);
    }

    private static int align(int offset, int alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }
}
