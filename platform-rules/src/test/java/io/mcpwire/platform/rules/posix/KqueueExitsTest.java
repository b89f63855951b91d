package io.mcpwire.platform.rules.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * macOS's wait for exits over a scripted C library: the filters it adds, as {@code struct kevent}
 * lays them out, what each event means, and what it closes. Only a Mac runs the real calls (the
 * kit's exit tests, on the matrix).
 */
class KqueueExitsTest {
    private static final int EMFILE = 24;
    private static final int ESRCH = 3;
    private static final String NOTE_EXIT = "0x80000000";

    private final PosixPlatformTest.ScriptedCLibrary libc = new PosixPlatformTest.ScriptedCLibrary();
    private final KqueueExits exits = new KqueueExits(new PosixLib(libc, PosixConstants.MACOS));

    KqueueExitsTest() {
        libc.keepingMemory = true;
    }

    /** The self-pipe (its ends moved to 7 and 8), then the queue: kqueue() gives 5, moved to 9. */
    private void pipeAndQueue() {
        libc.answer(0, 0).answer(7, 0).answer(8, 0).answer(0, 0).answer(0, 0);
        libc.answer(5, 0).answer(9, 0).answer(0, 0);
    }

    @Test
    void theWaitAddsTheWakeUpAndEachExitThenNamesTheProcessThatEnded() throws Exception {
        pipeAndQueue();
        libc.answer(0, 0).answer(0, 0).answer(0, 0).answer(1, 0);
        libc.events.add(new KqueueExits.Kevent(200, KqueueExits.EVFILT_PROC, (short) 0, KqueueExits.NOTE_EXIT, 0));
        try (ProcessExits.Wait wait = exits.watch(100, 200)) {
            assertEquals(OptionalLong.of(200), wait.await());
        }
        assertEquals(List.of("kqueue", "fcntl(5, 67, 3)", "close(5)",
                "kevent(9, add 7 filter -1 flags 1 fflags 0x0)",
                "kevent(9, add 100 filter -5 flags 1 fflags " + NOTE_EXIT + ")",
                "kevent(9, add 200 filter -5 flags 1 fflags " + NOTE_EXIT + ")",
                "kevent(9, wait 1)", "close(9)", "close(7)", "close(8)"), libc.calls.subList(5, libc.calls.size()),
                "the queue moved above fd 2 close-on-exec, the self-pipe's read end and each exit added, one event waited for, all closed");
    }

    @Test
    void anEventOnTheSelfPipeIsAWakeUpAndEndsTheWaitEmpty() throws Exception {
        pipeAndQueue();
        libc.answer(0, 0).answer(0, 0).answer(1, 0);
        libc.events.add(new KqueueExits.Kevent(7, KqueueExits.EVFILT_READ, (short) 0, 0, 1));
        try (ProcessExits.Wait wait = exits.watch(100)) {
            assertEquals(OptionalLong.empty(), wait.await());
        }
    }

    @Test
    void aProcessAlreadyGoneEndsTheWaitWithoutWaiting() throws Exception {
        pipeAndQueue();
        libc.answer(0, 0).answer(-1, ESRCH);
        try (ProcessExits.Wait wait = exits.watch(100)) {
            assertEquals(OptionalLong.of(100), wait.await());
        }
        assertTrue(libc.calls.stream().noneMatch(c -> c.contains("wait")), libc.calls.toString());
    }

    @Test
    void aRefusedQueueIsNamedAndThePipeIsClosed() {
        libc.answer(0, 0).answer(7, 0).answer(8, 0).answer(0, 0).answer(0, 0);
        libc.answer(-1, EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, () -> exits.watch(100));
        assertTrue(e.getMessage().contains("kqueue()") && e.getMessage().contains("EMFILE"), e.getMessage());
        assertEquals(EMFILE, e.errorCode());
        assertEquals(List.of("close(7)", "close(8)"), libc.calls.subList(libc.calls.size() - 2, libc.calls.size()));
    }

    @Test
    void aRefusedFilterClosesTheQueueAndThePipe() {
        pipeAndQueue();
        libc.answer(0, 0).answer(-1, EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, () -> exits.watch(100));
        assertTrue(e.getMessage().contains("EVFILT_PROC NOTE_EXIT 100"), e.getMessage());
        assertEquals(List.of("close(9)", "close(7)", "close(8)"), libc.calls.subList(libc.calls.size() - 3, libc.calls.size()));
    }

    @Test
    void anEventWithAnErrorFailsTheWaitNamingIt() throws Exception {
        pipeAndQueue();
        libc.answer(0, 0).answer(0, 0).answer(1, 0);
        libc.events.add(new KqueueExits.Kevent(100, KqueueExits.EVFILT_PROC, KqueueExits.EV_ERROR, 0, 22));
        try (ProcessExits.Wait wait = exits.watch(100)) {
            DescriptorException e = assertThrows(DescriptorException.class, wait::await);
            assertTrue(e.getMessage().contains("EV_ERROR 22 for 100"), e.getMessage());
            assertEquals(22, e.errorCode());
        }
    }
}
