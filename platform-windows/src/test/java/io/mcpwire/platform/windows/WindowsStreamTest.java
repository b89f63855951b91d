package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.rules.windows.WindowsErrors;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reads, writes and wake-ups of the Windows stream over mocks of kernel32. */
class WindowsStreamTest {
    private final MockWindows win = new MockWindows();

    @Test
    void readsWhatReadFileGivesAndABrokenPipeIsEndOfInput() throws Exception {
        long h = win.fds.get(0);
        byte[] data = "{\"jsonrpc\":\"2.0\"}\n".getBytes(StandardCharsets.UTF_8);
        when(win.kernel32.ReadFile(eq(h), any(), anyInt(), any(), any())).thenAnswer(i -> {
            ((Pointer) i.getArgument(1)).write(0, data, 0, data.length);
            ((IntByReference) i.getArgument(3)).setValue(data.length);
            return true;
        }).thenAnswer(i -> {
            win.lastError = WindowsErrors.ERROR_BROKEN_PIPE;
            return false;
        });
        try (DescriptorStream s = win.provider().open(0)) {
            byte[] b = new byte[100];
            assertEquals(data.length, s.read(b, 0, 100));
            assertEquals(new String(data, StandardCharsets.UTF_8), new String(b, 0, data.length, StandardCharsets.UTF_8));
            assertEquals(-1, s.read(b, 0, 100), "the client closed its end");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {WindowsErrors.ERROR_BROKEN_PIPE, WindowsErrors.ERROR_PIPE_NOT_CONNECTED, WindowsErrors.ERROR_HANDLE_EOF})
    void everyWayTheWriterCanGoIsEndOfInput(int error) throws Exception {
        when(win.kernel32.ReadFile(anyLong(), any(), anyInt(), any(), any())).thenAnswer(i -> {
            win.lastError = error;
            return false;
        });
        try (DescriptorStream s = win.provider().open(0)) {
            assertEquals(-1, s.read(new byte[8], 0, 8), "GetLastError " + error + " ends the input");
        }
    }

    @Test
    void anyOtherReadFailureIsAnErrorThatNamesIt() throws Exception {
        when(win.kernel32.ReadFile(anyLong(), any(), anyInt(), any(), any())).thenAnswer(i -> {
            win.lastError = 6;
            return false;
        });
        try (DescriptorStream s = win.provider().open(0)) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> s.read(new byte[8], 0, 8));
            assertTrue(e.getMessage().contains("ReadFile(fd 0)") && e.getMessage().contains("ERROR_INVALID_HANDLE"), e.getMessage());
        }
    }

    @Test
    void writesAreLfOnlyBytesAsGivenAndPartialWritesLoop() throws Exception {
        long h = win.fds.get(1);
        doAnswer(i -> {
            Pointer p = i.getArgument(1);
            int n = Math.min(3, (Integer) i.getArgument(2)); // three bytes at a time
            win.written.computeIfAbsent("stdout pipe", k -> new java.io.ByteArrayOutputStream()).write(p.getByteArray(0, n), 0, n);
            ((IntByReference) i.getArgument(3)).setValue(n);
            return true;
        }).when(win.kernel32).WriteFile(eq(h), any(), anyInt(), any(), any());
        try (DescriptorStream s = win.provider().open(1)) {
            byte[] line = "{\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
            s.write(line, 0, line.length);
        }
        assertEquals("{\"a\":1}\n", win.writtenTo("stdout pipe"));
    }

    @Test
    void writingToAClientThatHasGoneFailsWithTheReason() throws Exception {
        doAnswer(i -> {
            win.lastError = WindowsErrors.ERROR_NO_DATA;
            return false;
        }).when(win.kernel32).WriteFile(anyLong(), any(), anyInt(), any(), any());
        try (DescriptorStream s = win.provider().open(1)) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> s.write(new byte[] {'x'}, 0, 1));
            assertTrue(e.getMessage().contains("ERROR_NO_DATA") && e.getMessage().contains("reader has gone"), e.getMessage());
        }
    }

    @Test
    void wakeUpCancelsABlockedReadOnTheReadingThread() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        CountDownLatch reading = new CountDownLatch(1);
        when(win.kernel32.ReadFile(anyLong(), any(), anyInt(), any(), any())).thenAnswer(i -> {
            reading.countDown();
            cancelled.await(10, TimeUnit.SECONDS); // blocked until CancelSynchronousIo
            win.lastError = WindowsErrors.ERROR_OPERATION_ABORTED;
            return false;
        });
        when(win.kernel32.CancelSynchronousIo(anyLong())).thenAnswer(i -> {
            cancelled.countDown();
            return true;
        });
        DescriptorStream s = win.provider().open(0);
        CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
            try {
                s.read(new byte[8], 0, 8);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertTrue(reading.await(10, TimeUnit.SECONDS));
        s.wakeUp();
        assertInstanceOf(AsynchronousCloseException.class, reader.get(10, TimeUnit.SECONDS));
        verify(win.kernel32, atLeastOnce()).CancelSynchronousIo(0x999L);
        s.close();
        verify(win.kernel32).CloseHandle(0x999L); // the thread handle opened for the cancel
        assertThrows(AsynchronousCloseException.class, () -> s.read(new byte[8], 0, 8));
    }
}
