package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.verify;

import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.stdio.ClaimState;
import io.mcpwire.stdio.StdioClaim;
import java.io.InputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;

/**
 * The claim engine driving the Windows provider over mocks of its JNA bindings: the exact C
 * runtime and Win32 call sequences of claim, rollback, roll forward and restore.
 */
class WindowsClaimTest {
    private static final int NUL_FLAGS_READ = WindowsDescriptors.O_RDONLY | WindowsDescriptors.O_BINARY | WindowsDescriptors.O_NOINHERIT;
    private final MockWindows win = new MockWindows();
    private PrintStream out;
    private InputStream in;

    @BeforeEach
    void saveJvmStreams() {
        out = System.out;
        in = System.in;
    }

    @AfterEach
    void restoreJvmStreams() {
        System.setOut(out);
        System.setIn(in);
    }

    private StdioClaim claim() {
        return StdioClaim.builder().platform(win.provider()).acquire();
    }

    @Test
    void aClaimDuplicatesWithoutInheritanceDivertsBothLayersAndTheRestorePutsBothBack() {
        long stdin = win.fds.get(0);
        StdioClaim claim = claim();
        assertEquals(ClaimState.DIVERTED, claim.inputState());
        assertEquals(ClaimState.DIVERTED, claim.outputState());
        assertEquals("NUL", win.objectAt(0));
        assertEquals("stderr pipe", win.objectAt(1), "stdout diverts into a duplicate of stderr");
        assertEquals("NUL", win.slot(Kernel32.STD_INPUT_HANDLE), "the Win32 slot a child inherits is rebound too");
        assertEquals("stderr pipe", win.slot(Kernel32.STD_OUTPUT_HANDLE));
        assertEquals("stdin pipe", win.objectAt(3), "P0 above the standard range");
        assertEquals("stdout pipe", win.objectAt(4), "P1 above the standard range");

        InOrder order = inOrder(win.ucrt, win.kernel32, win.kernelBase);
        // Before anything moves: is stderr the wire? Then fd 0: a non-inheritable duplicate, NUL, dup2, close, rebind.
        order.verify(win.kernelBase).CompareObjectHandles(anyLong(), anyLong());
        order.verify(win.ucrt)._get_osfhandle(0);
        order.verify(win.kernel32).DuplicateHandle(eq(-1L), eq(stdin), eq(-1L), any(), eq(0), eq(false), eq(Kernel32.DUPLICATE_SAME_ACCESS));
        order.verify(win.ucrt)._open_osfhandle(anyLong(), eq(WindowsDescriptors.O_BINARY));
        order.verify(win.ucrt)._open("NUL", NUL_FLAGS_READ);
        order.verify(win.ucrt)._dup2(4, 0);
        order.verify(win.ucrt)._close(4);
        order.verify(win.kernel32).SetStdHandle(eq(Kernel32.STD_INPUT_HANDLE), anyLong());
        // fd 1: duplicate, duplicate stderr, dup2, close, rebind.
        order.verify(win.kernel32).DuplicateHandle(anyLong(), anyLong(), anyLong(), any(), eq(0), eq(false), anyInt());
        order.verify(win.ucrt)._dup2(5, 1);
        order.verify(win.ucrt)._close(5);
        order.verify(win.kernel32).SetStdHandle(eq(Kernel32.STD_OUTPUT_HANDLE), anyLong());

        claim.close();
        order.verify(win.ucrt)._dup2(4, 1);
        order.verify(win.kernel32).SetStdHandle(eq(Kernel32.STD_OUTPUT_HANDLE), anyLong());
        order.verify(win.ucrt)._close(4);
        order.verify(win.ucrt)._dup2(3, 0);
        order.verify(win.kernel32).SetStdHandle(eq(Kernel32.STD_INPUT_HANDLE), anyLong());
        order.verify(win.ucrt)._close(3);
        assertEquals("stdin pipe", win.objectAt(0));
        assertEquals("stdout pipe", win.objectAt(1));
        assertEquals("stdin pipe", win.slot(Kernel32.STD_INPUT_HANDLE));
        assertEquals("stdout pipe", win.slot(Kernel32.STD_OUTPUT_HANDLE));
        assertEquals(java.util.Set.of(0, 1, 2), win.fds.keySet(), "no descriptor leaked");
    }

    @Test
    void whenTheDivertingDup2FailsTheRollbackRestoresAndServesInPlace() {
        win.dup2FailTarget = 0;
        win.dup2Failures = 1;
        StdioClaim claim = claim();
        assertEquals(ClaimState.IN_PLACE, claim.inputState());
        assertEquals("stdin pipe", win.objectAt(0));
        InOrder order = inOrder(win.ucrt, win.kernel32);
        order.verify(win.ucrt)._dup2(4, 0);             // fails
        order.verify(win.ucrt)._close(4);               // D is closed
        order.verify(win.ucrt)._dup2(3, 0);             // rollback
        order.verify(win.kernel32).SetStdHandle(eq(Kernel32.STD_INPUT_HANDLE), anyLong());
        order.verify(win.ucrt)._close(3);               // P, after the rollback
        claim.close();
        assertEquals(java.util.Set.of(0, 1, 2), win.fds.keySet());
    }

    @Test
    void aDup2ThatDestroysItsTargetBeforeFailingIsRolledBackToo() {
        win.dup2FailTarget = 0;
        win.dup2Failures = 1;
        win.dup2Destroys = true;
        StdioClaim claim = claim();
        assertEquals(ClaimState.IN_PLACE, claim.inputState());
        assertEquals("stdin pipe", win.objectAt(0), "fd 0 is back on the wire after the rollback");
        assertEquals("stdin pipe", win.slot(Kernel32.STD_INPUT_HANDLE));
        claim.close();
    }

    @Test
    void whenTheRollbackFailsTooTheClaimRollsForwardAndTheRestoreAtExitWorks() {
        win.closeFailFd = 4;      // closing the diversion (fd 4, after P0 on fd 3) fails
        win.dup2FailTarget = 0;
        win.dup2Failures = 0;
        StdioClaim claim;
        // The first dup2 onto 0 succeeds; make the second (the rollback) fail.
        org.mockito.Mockito.doAnswer(new org.mockito.stubbing.Answer<Integer>() {
            private int calls;

            @Override
            public Integer answer(org.mockito.invocation.InvocationOnMock i) {
                int source = i.getArgument(0);
                int target = i.getArgument(1);
                if (target == 0 && ++calls == 2) {
                    win.errno = 9;
                    return -1;
                }
                win.fds.put(target, win.handle(win.objects.get(win.fds.get(source))));
                return 0;
            }
        }).when(win.ucrt)._dup2(anyInt(), anyInt());
        claim = claim();
        assertEquals(ClaimState.ROLLED_FORWARD, claim.inputState());
        assertEquals("NUL", win.objectAt(0), "fd 0 stays on the diversion while serving");
        assertEquals("NUL", win.slot(Kernel32.STD_INPUT_HANDLE),
                "the slot a child inherits names the diversion, not the handle _dup2 closed");
        claim.close();
        verify(win.ucrt, org.mockito.Mockito.times(3))._dup2(anyInt(), eq(0));
        assertEquals("stdin pipe", win.objectAt(0), "the third dup2 put it back");
        assertTrue(claim.isReleased());
    }

    @Test
    void systemInAndSystemOutAreSwappedForTheSessionThenPointedAtTheRestoredDescriptors() {
        StdioClaim claim = claim();
        assertNotSame(out, System.out, "System.out is swapped");
        assertNotSame(in, System.in, "System.in is swapped");
        System.out.println("stray println");
        assertEquals("stray println" + System.lineSeparator(), win.writtenTo("stderr pipe"),
                "System.out now writes to the diverted fd 1 (a duplicate of stderr)");
        claim.close();
        assertEquals("", win.writtenTo("stdout pipe"), "nothing reached the wire during the session");
        // The originals hold the handles _dup2 closed at the claim: the JVM gets new streams instead.
        assertNotSame(out, System.out);
        assertNotSame(in, System.in);
        System.out.println("after the session");
        assertEquals("after the session" + System.lineSeparator(), win.writtenTo("stdout pipe"),
                "System.out writes the restored fd 1");
    }

    @Test
    void aProcessStartedWithoutStdinLeavesFdZeroAloneAndNeverFastFails() {
        // No stdin from the parent: the C runtime marks fd 0 open with no OS handle (-2), so nothing
        // else lands there, and the Win32 slot is empty.
        win.fds.put(0, -2L);
        win.slots.remove(Kernel32.STD_INPUT_HANDLE);
        StdioClaim claim = claim();
        assertEquals(ClaimState.ABSENT, claim.inputState());
        assertEquals(ClaimState.DIVERTED, claim.outputState());
        claim.close();
        verify(win.ucrt, org.mockito.Mockito.never())._dup2(anyInt(), eq(0));
        assertEquals(-2L, win.fds.get(0), "fd 0 untouched");
    }

    @Test
    void withStderrSharingTheWireStdoutDivertsToNul() {
        win.fds.put(2, win.handle("stdout pipe")); // 2>&1: another handle to the same pipe
        StdioClaim claim = claim();
        assertEquals("NUL", win.objectAt(1));
        claim.close();
    }

    @Test
    void aFailedRestoreKeepsTheClaimAndSwallowsTheError() {
        StdioClaim claim = claim();
        win.dup2FailTarget = 0;
        win.dup2Failures = 1;
        claim.close();
        assertEquals(ClaimState.STUCK, claim.inputState());
        assertFalse(claim.isReleased());
        claim.close(); // retried
        assertTrue(claim.isReleased());
        assertEquals("stdin pipe", win.objectAt(0));
    }
}
