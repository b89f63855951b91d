package io.mcpwire.platform.windows;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.support.ChunkedStream;
import io.mcpwire.platform.windows.jna.Kernel32;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Reads and writes one descriptor's OS handle with {@code ReadFile}/{@code WriteFile} on native
 * buffers. {@link #wakeUp()} cancels a pending call with {@code CancelSynchronousIo} on the thread
 * that made it, retrying until that thread has left, since a cancel that comes before the call
 * starts finds nothing to cancel.
 */
final class WindowsStream extends ChunkedStream {

    private final Kernel32 kernel32;
    private final IntSupplier lastError;
    private final int fd;
    private final long handle;
    private final Map<Thread, Long> threadHandles = new HashMap<>();
    private final Map<Thread, Long> inCall = new HashMap<>();
    private Memory readBuffer;
    private Memory writeBuffer;

    WindowsStream(Kernel32 kernel32, IntSupplier lastError, int fd, long handle) {
        this.kernel32 = kernel32;
        this.lastError = lastError;
        this.fd = fd;
        this.handle = handle;
    }

    @Override
    public int descriptor() {
        return fd;
    }

    /**
     * Registers the calling thread for the length of one OS call, so that a wake-up can cancel it;
     * the caller checks for a wake-up after registering, so none falls between the two.
     */
    private synchronized void entering() {
        Thread t = Thread.currentThread();
        Long th = threadHandles.get(t);
        if (th == null) {
            th = kernel32.OpenThread(Kernel32.THREAD_TERMINATE, false, kernel32.GetCurrentThreadId());
            threadHandles.put(t, th);
        }
        inCall.put(t, th);
    }

    private synchronized void left() {
        inCall.remove(Thread.currentThread());
    }

    @Override
    protected int readChunk(int max) throws IOException {
        synchronized (this) {
            if (readBuffer == null) {
                readBuffer = new Memory(CHUNK);
            }
        }
        IntByReference read = new IntByReference();
        while (true) {
            boolean ok;
            entering();
            try {
                checkWoken(); // after registering: a wake-up either sees this thread or is seen here
                ok = kernel32.ReadFile(handle, readBuffer, max, read, null);
            } finally {
                left();
            }
            if (ok) {
                int n = read.getValue();
                return n == 0 ? -1 : n; // 0: end of file
            }
            int error = lastError.getAsInt();
            if (error == WindowsErrors.ERROR_BROKEN_PIPE || error == WindowsErrors.ERROR_HANDLE_EOF) {
                return -1; // the writer closed its end
            }
            if (error != WindowsErrors.ERROR_OPERATION_ABORTED) {
                throw new DescriptorException("ReadFile(fd " + fd + ")", fd, error, WindowsErrors.win32(error));
            }
            // Cancelled: by wakeUp (checked above), or by someone else: read again.
        }
    }

    @Override
    protected void copyOut(byte[] buffer, int offset, int n) {
        readBuffer.read(0, buffer, offset, n);
    }

    @Override
    protected synchronized void copyIn(byte[] buffer, int offset, int n) {
        if (writeBuffer == null) {
            writeBuffer = new Memory(CHUNK);
        }
        writeBuffer.write(0, buffer, offset, n);
    }

    @Override
    protected int writeSome(int from, int n) throws IOException {
        IntByReference written = new IntByReference();
        boolean ok;
        entering();
        try {
            checkWoken();
            ok = kernel32.WriteFile(handle, writeBuffer.share(from), n, written, null);
        } finally {
            left();
        }
        if (ok) {
            return written.getValue();
        }
        int error = lastError.getAsInt();
        if (error == WindowsErrors.ERROR_OPERATION_ABORTED) {
            return 0; // cancelled: by wakeUp (checked before the next try), or by someone else
        }
        throw new DescriptorException("WriteFile(fd " + fd + ")", fd, error, WindowsErrors.win32(error));
    }

    /** Cancels until no thread is left in a call; a cancel before ReadFile starts finds nothing. */
    @Override
    protected void interruptCalls() {
        for (int attempt = 0; attempt < 5_000; attempt++) {
            Long[] threads;
            synchronized (this) {
                if (isFreed()) {
                    return;
                }
                threads = inCall.values().toArray(new Long[0]);
            }
            if (threads.length == 0) {
                return;
            }
            for (long th : threads) {
                kernel32.CancelSynchronousIo(th);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    protected void freeResources() {
        for (long th : threadHandles.values()) {
            kernel32.CloseHandle(th);
        }
        threadHandles.clear();
    }

    @Override
    public String toString() {
        return "WindowsStream[fd " + fd + "]";
    }
}
