package io.mcpwire.platform.windows;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.AbstractDescriptorStream;
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
final class WindowsStream extends AbstractDescriptorStream {
    private static final int CHUNK = 64 * 1024;

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

    /** Registers the calling thread, so that a wake-up can cancel its call. */
    @Override
    protected void entered() {
        Thread t = Thread.currentThread();
        Long th = threadHandles.get(t);
        if (th == null) {
            th = kernel32.OpenThread(Kernel32.THREAD_TERMINATE, false, kernel32.GetCurrentThreadId());
            threadHandles.put(t, th);
        }
        inCall.put(t, th);
    }

    @Override
    protected void exited() {
        inCall.remove(Thread.currentThread());
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        enter();
        try {
            synchronized (this) {
                if (readBuffer == null) {
                    readBuffer = new Memory(CHUNK);
                }
            }
            IntByReference read = new IntByReference();
            while (true) {
                checkWoken();
                if (kernel32.ReadFile(handle, readBuffer, Math.min(length, CHUNK), read, null)) {
                    int n = read.getValue();
                    if (n == 0) {
                        return -1; // end of file
                    }
                    readBuffer.read(0, buffer, offset, n);
                    return n;
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
        } finally {
            exit();
        }
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        enter();
        try {
            synchronized (this) {
                if (writeBuffer == null) {
                    writeBuffer = new Memory(CHUNK);
                }
            }
            IntByReference written = new IntByReference();
            int done = 0;
            while (done < length) {
                int chunk = Math.min(length - done, CHUNK);
                writeBuffer.write(0, buffer, offset + done, chunk);
                int sent = 0;
                while (sent < chunk) {
                    checkWoken();
                    if (kernel32.WriteFile(handle, writeBuffer.share(sent), chunk - sent, written, null)) {
                        sent += written.getValue();
                        continue;
                    }
                    int error = lastError.getAsInt();
                    if (error == WindowsErrors.ERROR_OPERATION_ABORTED) {
                        continue;
                    }
                    throw new DescriptorException("WriteFile(fd " + fd + ")", fd, error, WindowsErrors.win32(error));
                }
                done += chunk;
            }
        } finally {
            exit();
        }
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
