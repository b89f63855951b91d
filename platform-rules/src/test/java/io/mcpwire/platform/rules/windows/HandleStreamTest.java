package io.mcpwire.platform.rules.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A descriptor's stream over a scripted {@link Win32} ({@link HandleStream}): {@code ReadFile} and
 * {@code WriteFile} on the descriptor's handle through one native buffer each; the ways a writer
 * goes read as end of input; a cancel by someone else read or written again; a wake-up cancelling
 * the blocked call with {@code CancelSynchronousIo} on its thread until it has left; each
 * thread's handle opened once and closed once.
 */
class HandleStreamTest {
    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final WindowsPlatform rules = w.platform();
    private final String me = Thread.currentThread().getName();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsGiveWhatReadFileGaveThroughOneBufferAndOneThreadHandle() throws Exception {
        w.input("hello");
        w.input("world");
        byte[] b = new byte[8];
        try (DescriptorStream s = rules.open(0)) {
            assertEquals(5, s.read(b, 0, 8));
            assertEquals("hello", new String(b, 0, 5, StandardCharsets.UTF_8));
            assertEquals(5, s.read(b, 0, 8));
            assertEquals("world", new String(b, 0, 5, StandardCharsets.UTF_8));
            assertEquals(-1, s.read(b, 0, 8), "0 bytes: end of file");
        }
        assertEquals(List.of("_get_osfhandle(0)", "OpenThread(" + me + ")", "ReadFile(0x10, 8)", "ReadFile(0x10, 8)", "ReadFile(0x10, 8)",
                "CloseHandle(0x1000)"), w.calls());
        assertEquals(1, w.allocations());
    }

    @ParameterizedTest
    @ValueSource(ints = {WindowsErrors.ERROR_BROKEN_PIPE, WindowsErrors.ERROR_PIPE_NOT_CONNECTED, WindowsErrors.ERROR_HANDLE_EOF})
    void everyWayTheWriterCanGoIsEndOfInput(int error) throws Exception {
        w.fails("ReadFile", error);
        try (DescriptorStream s = rules.open(0)) {
            assertEquals(-1, s.read(new byte[8], 0, 8));
        }
    }

    @Test
    void aReadCancelledBySomeoneElseIsMadeAgainAndAnyOtherFailureNamesTheCallAndTheError() throws Exception {
        w.fails("ReadFile", WindowsErrors.ERROR_OPERATION_ABORTED);
        w.input("{}");
        try (DescriptorStream s = rules.open(0)) {
            assertEquals(2, s.read(new byte[8], 0, 8));
            assertEquals(2, w.calls().stream().filter(c -> c.startsWith("ReadFile")).count());
            w.fails("ReadFile", ScriptedWin32.ERROR_ACCESS_DENIED);
            DescriptorException e = assertThrows(DescriptorException.class, () -> s.read(new byte[8], 0, 8));
            assertEquals("ReadFile(fd 0) failed on fd 0: GetLastError 5 ERROR_ACCESS_DENIED [error 5]", e.getMessage());
        }
    }

    @Test
    void aWriteGoesOnWhereWriteFileStoppedAndAfterACancelBySomeoneElse() throws Exception {
        w.answer("WriteFile", 3, 0);
        w.fails("WriteFile", WindowsErrors.ERROR_OPERATION_ABORTED);
        try (DescriptorStream s = rules.open(1)) {
            s.write(bytes("0123456789"), 0, 10);
        }
        assertEquals(List.of("WriteFile(0x14, 0, 10)", "WriteFile(0x14, 3, 7)", "WriteFile(0x14, 3, 7)"),
                w.calls().stream().filter(c -> c.startsWith("WriteFile")).toList());
        assertEquals("0123456789", w.written(), "each byte once, in order, no CR added");
    }

    @Test
    void aWriteLongerThanTheBufferIsWrittenInChunks() throws Exception {
        try (DescriptorStream s = rules.open(1)) {
            s.write(new byte[70_000], 0, 70_000);
        }
        assertEquals(List.of("WriteFile(0x14, 0, 65536)", "WriteFile(0x14, 0, 4464)"),
                w.calls().stream().filter(c -> c.startsWith("WriteFile")).toList());
        assertEquals(1, w.allocations());
    }

    @Test
    void aFailedWriteNamesTheCallAndTheError() throws Exception {
        w.fails("WriteFile", WindowsErrors.ERROR_NO_DATA);
        try (DescriptorStream s = rules.open(1)) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> s.write(bytes("{}\n"), 0, 3));
            assertEquals("WriteFile(fd 1) failed on fd 1: GetLastError 232 ERROR_NO_DATA (the pipe is being closed: the reader has gone) "
                    + "[error 232]", e.getMessage());
        }
    }

    @Test
    void aWakeUpCancelsTheBlockedReadOnItsThreadAgainUntilItHasLeft() throws Exception {
        Hold read = w.hold("ReadFile(0x10, 8)");
        w.nextValues(0x3000); // the reading thread's handle
        w.fails("CancelSynchronousIo", ScriptedWin32.ERROR_NOT_FOUND); // the first cancel comes before the read starts
        DescriptorStream s = rules.open(0);
        CompletableFuture<Integer> reading = CompletableFuture.supplyAsync(() -> {
            try {
                return s.read(new byte[8], 0, 8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        read.awaitEntered();
        s.wakeUp();
        assertFalse(w.isHeld(read.worker()), "the wake-up returns once the read has left");
        ExecutionException woken = assertThrows(ExecutionException.class, reading::get);
        assertTrue(woken.getCause().getCause() instanceof AsynchronousCloseException, woken.toString());
        List<String> cancels = w.calls().stream().filter(c -> c.startsWith("CancelSynchronousIo")).toList();
        assertTrue(cancels.size() >= 2 && cancels.stream().allMatch(c -> c.equals("CancelSynchronousIo(0x3000)")), cancels.toString());
        assertEquals(1, w.calls().stream().filter(c -> c.startsWith("ReadFile")).count(), "woken: not read again");
        s.close();
    }

    @Test
    void afterAWakeUpNoCallIsMade() throws Exception {
        try (DescriptorStream s = rules.open(0)) {
            s.wakeUp();
            assertThrows(AsynchronousCloseException.class, () -> s.read(new byte[8], 0, 8));
            assertThrows(AsynchronousCloseException.class, () -> s.write(bytes("{}"), 0, 2));
        }
        assertEquals(List.of("_get_osfhandle(0)"), w.calls());
    }

    @Test
    void aPreparedThreadOpensItsHandleBeforeAndEachThreadsHandleIsClosedOnceWithTheStream() throws Exception {
        DescriptorStream s = rules.open(1);
        s.prepare();
        assertEquals(List.of("_get_osfhandle(1)", "OpenThread(" + me + ")"), w.calls());
        s.write(bytes("a"), 0, 1);
        CompletableFuture.runAsync(() -> {
            try {
                s.write(bytes("b"), 0, 1);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).get();
        s.close();
        s.close();
        assertEquals(2, w.calls().stream().filter(c -> c.startsWith("OpenThread")).count(), "one per thread");
        assertEquals(List.of("CloseHandle(0x1000)", "CloseHandle(0x1004)"),
                w.calls().stream().filter(c -> c.startsWith("CloseHandle")).sorted().toList(), "each once");
        assertFalse(w.calls().stream().anyMatch(c -> c.startsWith("_close")), "a stream never closes its descriptor");
    }

    @Test
    void aStreamOnADescriptorThatIsNotOpenIsRefused() {
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.open(9));
        assertEquals("open(9) failed on fd 9: _get_osfhandle(9): errno 9 EBADF (Bad file descriptor) [error 9]", e.getMessage());
    }
}
