package io.mcpwire.platform.rules.windows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorTable;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the Windows rules fix once for every binding: the layout of
 * {@code BY_HANDLE_FILE_INFORMATION}, the names of the errors, what ends input, the default
 * patience, the JDK's child-start monitor, and the state kept per descriptor table.
 */
class WindowsValuesTest {

    @Test
    void aFilesIdIsItsVolumeSerialAndItsIndexReadUnsignedFromTheirOffsets() {
        Map<Long, Integer> dwords = Map.of(28L, 0xfedcba98, 44L, 0x80000001, 48L, 0xffffffff);
        assertArrayEquals(new long[] {0xfedcba98L, 0x80000001_ffffffffL}, FileInformation.id(dwords::get));
        assertEquals(52, FileInformation.SIZE);
    }

    @Test
    void theWaysAWriterGoesEndInputAndNothingElseDoes() {
        assertTrue(WindowsErrors.isEndOfInput(WindowsErrors.ERROR_BROKEN_PIPE));
        assertTrue(WindowsErrors.isEndOfInput(WindowsErrors.ERROR_PIPE_NOT_CONNECTED), "a named pipe's peer disconnected (Node's stdio)");
        assertTrue(WindowsErrors.isEndOfInput(WindowsErrors.ERROR_HANDLE_EOF));
        assertFalse(WindowsErrors.isEndOfInput(WindowsErrors.ERROR_OPERATION_ABORTED), "a cancel is read again");
        assertFalse(WindowsErrors.isEndOfInput(WindowsErrors.ERROR_NO_DATA), "the reader went: a write's error");
    }

    @Test
    void errorsAreNamedWithTheirCodeAndAnUnknownOneSaysWhereToLook() {
        assertEquals("errno 24 EMFILE (Too many open files)", WindowsErrors.errno(24));
        assertEquals("errno 99 (unknown)", WindowsErrors.errno(99));
        assertEquals("GetLastError 995 ERROR_OPERATION_ABORTED", WindowsErrors.win32(995));
        assertEquals("GetLastError 1168 (see the Win32 system error codes)", WindowsErrors.win32(1168));
    }

    @Test
    void theDefaultPatienceWaitsHalfASecond() throws Exception {
        long[] asked = new long[1];
        Patience.Pending call = new Patience.Pending() {
            @Override
            public Thread worker() {
                return Thread.currentThread();
            }

            @Override
            public boolean awaitReturn(long nanos) {
                asked[0] = nanos;
                return false;
            }
        };
        assertFalse(Patience.DEFAULT.await(call), "not returned within the wait: stalled");
        assertEquals(500_000_000L, asked[0]);
    }

    @Test
    void theChildStartMonitorIsTheJdksProcessImplClassUnlessABindingGivesItsOwn() throws Exception {
        assertSame(Class.forName("java.lang.ProcessImpl", false, null), ChildStarts.MONITOR);
        ScriptedWin32 w = new ScriptedWin32();
        assertSame(ChildStarts.MONITOR, w.jdkChildStartLock());
        assertSame(w.childStarts, w.childStartLock());
    }

    @Test
    void theStateIsOnePerDescriptorTableWhicheverProviderAsksFirst() {
        DescriptorTable table = DescriptorTable.create("one table");
        TableState first = TableState.of(table, Patience.DEFAULT);
        assertSame(first, TableState.of(table, call -> true));
        assertNotSame(first, TableState.of(DescriptorTable.create("another table"), Patience.DEFAULT));
        assertFalse(new ScriptedWin32().platformOn(table).jvmStreamsFollowDescriptors(), "the engine swaps System.in and System.out");
    }
}
