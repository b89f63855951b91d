package io.mcpwire.platform.rules.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Linux's wait for exits over a scripted C library: what it opens, what it closes, and what a refusal says. */
class PidfdExitsTest {
    private static final int ENOSYS = 38;
    private static final int ESRCH = 3;

    private final PosixPlatformTest.ScriptedCLibrary libc = new PosixPlatformTest.ScriptedCLibrary();
    private final PidfdExits exits = new PidfdExits(new PosixLib(libc, PosixConstants.LINUX));

    /** The self-pipe: pipe(), then each end moved above fd 2 (to 7 and 8) and the originals closed. */
    private void selfPipe() {
        libc.answer(0, 0).answer(7, 0).answer(8, 0).answer(0, 0).answer(0, 0);
    }

    @Test
    void aKernelWithoutPidfdOpenIsNamedAndNothingIsLeftOpen() {
        selfPipe();
        libc.answer(9, 0).answer(-1, ENOSYS);
        DescriptorException e = assertThrows(DescriptorException.class, () -> exits.watch(100, 200));
        assertTrue(e.getMessage().contains("pidfd_open(200)") && e.getMessage().contains("Linux before 5.3"), e.getMessage());
        assertEquals(ENOSYS, e.errorCode());
        assertEquals(List.of("close(9)", "close(7)", "close(8)"), libc.calls.subList(libc.calls.size() - 3, libc.calls.size()),
                "the pidfd opened and the self-pipe are closed");
    }

    @Test
    void aProcessAlreadyGoneEndsTheWaitWithoutAPoll() throws Exception {
        selfPipe();
        libc.answer(-1, ESRCH);
        try (ProcessExits.Wait wait = exits.watch(100)) {
            assertEquals(OptionalLong.of(100), wait.await());
        }
        assertTrue(libc.calls.stream().noneMatch(c -> c.equals("poll")), libc.calls.toString());
    }

    @Test
    void aPidfdThatTookAStandardNumberIsMovedAboveIt() throws Exception {
        selfPipe();
        libc.answer(1, 0).answer(9, 0).answer(0, 0); // fd 1 was closed: pidfd_open got it
        try (ProcessExits.Wait wait = exits.watch(100)) {
            assertEquals(List.of("pidfd_open(100)", "fcntl(1, 1030, 3)", "close(1)"), libc.calls.subList(5, 8));
        }
        assertTrue(libc.calls.containsAll(List.of("close(9)", "close(7)", "close(8)")), "closing the wait closes its descriptors");
    }
}
