package io.mcpwire.platform.rules.windows;

import static io.mcpwire.platform.rules.windows.ScriptedWin32.ERROR_ACCESS_DENIED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Windows' wait for other processes' exits over a scripted {@link Win32}: a handle per process and a
 * wake event waited on together; a process gone before the wait is ended at once; a refusal names
 * its call and leaves nothing open.
 */
class WindowsExitsTest {
    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final ProcessExits exits = w.platform().processExits().orElseThrow();

    @Test
    void theWaitNamesTheProcessThatExitedAndClosesEveryHandleItOpened() throws Exception {
        w.process(7);
        w.process(9);
        w.forgetCalls();
        CompletableFuture<OptionalLong> outcome = new CompletableFuture<>();
        try (ProcessExits.Wait wait = exits.watch(7, 9)) {
            Thread t = new Thread(() -> {
                try {
                    outcome.complete(wait.await());
                } catch (Throwable e) {
                    outcome.completeExceptionally(e);
                }
            });
            t.start();
            w.exits(9);
            assertEquals(OptionalLong.of(9), outcome.get(10, TimeUnit.SECONDS));
            t.join();
        }
        assertEquals(List.of("CreateEventW(NULL, TRUE, FALSE, NULL)", "OpenProcess(SYNCHRONIZE, FALSE, 7)",
                "OpenProcess(SYNCHRONIZE, FALSE, 9)", "WaitForMultipleObjects(3, ..., FALSE, INFINITE)",
                "CloseHandle(0x1000)", "CloseHandle(0x1004)", "CloseHandle(0x1008)"), w.calls());
    }

    @Test
    void aWakeSetsTheEventAndTheWaitReturnsEmpty() throws Exception {
        w.process(7);
        try (ProcessExits.Wait wait = exits.watch(7)) {
            wait.wake();
            wait.wake(); // once: the event is set once
            assertEquals(OptionalLong.empty(), wait.await());
        }
        assertEquals(1, w.calls().stream().filter(c -> c.startsWith("SetEvent(")).count(), w.calls().toString());
    }

    @Test
    void aProcessGoneBeforeTheWaitOpenedEndsItWithoutAWait() throws Exception {
        w.forgetCalls();
        try (ProcessExits.Wait wait = exits.watch(5)) { // no process 5: OpenProcess says ERROR_INVALID_PARAMETER
            assertEquals(OptionalLong.of(5), wait.await());
        }
        assertTrue(w.calls().stream().noneMatch(c -> c.startsWith("WaitForMultipleObjects")), w.calls().toString());
    }

    @Test
    void aRefusedOpenNamesTheCallAndTheErrorAndClosesWhatWasOpened() {
        w.process(7);
        w.process(9);
        w.forgetCalls();
        w.fails("OpenProcess(SYNCHRONIZE, FALSE, 9)", ERROR_ACCESS_DENIED);
        DescriptorException e = assertThrows(DescriptorException.class, () -> exits.watch(7, 9));
        assertTrue(e.getMessage().contains("OpenProcess(SYNCHRONIZE, FALSE, 9)") && e.getMessage().contains("ERROR_ACCESS_DENIED"),
                e.getMessage());
        assertEquals(List.of("CloseHandle(0x1000)", "CloseHandle(0x1004)"), w.calls().subList(3, 5), "the event and 7's handle");
    }

    @Test
    void aFailedWaitNamesTheCall() throws Exception {
        w.process(7);
        w.fails("WaitForMultipleObjects", ScriptedWin32.ERROR_INVALID_HANDLE);
        try (ProcessExits.Wait wait = exits.watch(7)) {
            DescriptorException e = assertThrows(DescriptorException.class, wait::await);
            assertTrue(e.getMessage().startsWith("WaitForMultipleObjects(2, ..., FALSE, INFINITE) failed"), e.getMessage());
        }
    }
}
