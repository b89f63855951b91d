package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.rules.ChunkedStream;
import io.mcpwire.platform.rules.NativeMemory;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Reads and writes one descriptor's OS handle with {@code ReadFile}/{@code WriteFile} on native
 * buffers. {@link #wakeUp()} cancels a pending call with {@code CancelSynchronousIo} on the thread
 * that made it, retrying until that thread has left (for a second at most), since a cancel that
 * comes before the call starts finds nothing to cancel. A read or write is registered with the
 * table's {@link PendingIo} for its length, so that no query on the same pipe is made behind it. A thread's handle (for the
 * cancel) is opened on its first call, or before by {@link #prepare()}: it takes a value of the
 * process's handle table, so a thread that must allocate nothing later (while a start-up value is
 * free) prepares first.
 */
final class HandleStream extends ChunkedStream {
    /**
     * How long a wake-up goes on cancelling. A thread about to start its call starts it within far
     * less; one waiting for its file object's lock (a writer blocked on a stderr nobody reads holds
     * it) is reached by no cancel, and a count of tries would last a timer tick each where a
     * millisecond's sleep takes one (15.6 ms by default on Windows).
     */
    private static final long CANCEL_FOR_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Win32 win;
    private final int fd;
    private final long handle;
    private final PendingIo pendingIo;
    private final Map<Thread, Long> threadHandles = new HashMap<>();
    private final Map<Thread, Long> inCall = new HashMap<>();
    private NativeMemory readBuffer;
    private NativeMemory writeBuffer;

    HandleStream(Win32 win, int fd, long handle, PendingIo pendingIo) {
        this.win = win;
        this.fd = fd;
        this.handle = handle;
        this.pendingIo = pendingIo;
    }

    /** Opens the calling thread's handle now, so that its reads and writes allocate none later. */
    @Override
    public void prepare() {
        entering();
        left();
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
            th = win.openCurrentThread();
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
                readBuffer = win.allocate(CHUNK);
            }
        }
        while (true) {
            int n;
            entering();
            pendingIo.enter(handle); // no query on this pipe while the read may block
            try {
                checkWoken(); // after registering: a wake-up either sees this thread or is seen here
                n = win.readFile(handle, readBuffer, max);
            } finally {
                pendingIo.leave(handle);
                left();
            }
            if (n >= 0) {
                return n == 0 ? -1 : n; // 0: end of file
            }
            int error = win.lastError();
            if (WindowsErrors.isEndOfInput(error)) {
                return -1; // the writer closed its end, or disconnected
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
            writeBuffer = win.allocate(CHUNK);
        }
        writeBuffer.write(0, buffer, offset, n);
    }

    @Override
    protected int writeSome(int from, int n) throws IOException {
        int written;
        entering();
        pendingIo.enter(handle); // no query on this pipe while the write may block
        try {
            checkWoken();
            written = win.writeFile(handle, writeBuffer, from, n);
        } finally {
            pendingIo.leave(handle);
            left();
        }
        if (written >= 0) {
            return written;
        }
        int error = win.lastError();
        if (error == WindowsErrors.ERROR_OPERATION_ABORTED) {
            return 0; // cancelled: by wakeUp (checked before the next try), or by someone else
        }
        throw new DescriptorException("WriteFile(fd " + fd + ")", fd, error, WindowsErrors.win32(error));
    }

    /**
     * Cancels until no thread is left in a call, for at most {@link #CANCEL_FOR_NANOS}: a cancel
     * before ReadFile starts finds nothing, so it is tried again every millisecond.
     */
    @Override
    protected void interruptCalls() {
        long deadline = System.nanoTime() + CANCEL_FOR_NANOS;
        do {
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
                win.cancelSynchronousIo(th);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        } while (System.nanoTime() - deadline < 0);
    }

    @Override
    protected void freeResources() {
        for (long th : threadHandles.values()) {
            win.closeHandle(th);
        }
        threadHandles.clear();
    }

    @Override
    public String toString() {
        return "HandleStream[fd " + fd + "]";
    }
}
