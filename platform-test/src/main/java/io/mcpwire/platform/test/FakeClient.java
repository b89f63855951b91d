package io.mcpwire.platform.test;

import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The client's ends of a {@link FakeProcess}'s wire: it writes what the server reads on fd 0 and
 * reads what the server writes on fd 1.
 */
public final class FakeClient {
    private final FakeKernel process;
    private final Pipe toServer;
    private final Pipe toClient;
    /** Bytes read from the server and not yet handed out: {@code pending[head, tail)}. */
    private byte[] pending = new byte[4096];
    private int head;
    private int tail;
    private int scanned;
    private boolean inputClosed;
    private boolean disconnected;

    FakeClient(FakeKernel process, Pipe toServer, Pipe toClient) {
        this.process = process;
        this.toServer = toServer;
        this.toClient = toClient;
    }

    /** Sends one line; a newline is added. */
    public void send(String line) {
        sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Sends raw bytes, exactly as given. */
    public void sendBytes(byte[] bytes) {
        process.lock.lock();
        try {
            if (inputClosed) {
                throw new IllegalStateException("the client already closed its end");
            }
            toServer.append(bytes, 0, bytes.length);
            process.changed.signalAll();
        } finally {
            process.lock.unlock();
        }
    }

    /** Closes the client's write end: the server reads end of input after what was sent. */
    public void closeInput() {
        process.lock.lock();
        try {
            if (!inputClosed) {
                inputClosed = true;
                toServer.writers--;
                process.changed.signalAll();
            }
        } finally {
            process.lock.unlock();
        }
    }

    /** Closes both client ends, as a client that exits: server writes then fail with EPIPE. */
    public void disconnect() {
        process.lock.lock();
        try {
            closeInput();
            if (!disconnected) {
                disconnected = true;
                toClient.readers--;
                toClient.takeAll();
                process.changed.signalAll();
            }
        } finally {
            process.lock.unlock();
        }
    }

    /**
     * Reads the next line the server wrote, without its {@code '\n'}, waiting up to {@code timeout}.
     * A {@code '\r'} before it stays: MCP frames end with {@code '\n'} alone, and a test sees what
     * was written ({@code println} on Windows writes {@code "\r\n"}).
     *
     * @return the line, or null at end of output (every server write end closed, nothing left)
     * @throws IllegalStateException when no line arrives in time
     */
    public String readLine(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        process.lock.lock();
        try {
            while (true) {
                pull();
                for (int i = Math.max(scanned, head); i < tail; i++) {
                    if (pending[i] == '\n') {
                        String line = new String(pending, head, i - head, StandardCharsets.UTF_8);
                        head = i + 1;
                        scanned = head;
                        return line;
                    }
                }
                scanned = tail;
                if (toClient.writers == 0) {
                    if (tail == head) {
                        return null;
                    }
                    String rest = new String(pending, head, tail - head, StandardCharsets.UTF_8);
                    head = tail;
                    return rest;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("no line from the server within " + timeout
                            + " (pending: " + (tail - head) + " bytes)");
                }
                process.changed.await(left, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            process.lock.unlock();
        }
    }

    /** Reads {@code count} lines, each within {@code timeout}; stops early at end of output. */
    public List<String> readLines(int count, Duration timeout) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String line = readLine(timeout);
            if (line == null) {
                break;
            }
            out.add(line);
        }
        return out;
    }

    /** Takes every byte the server has written and the client not yet read, without waiting. */
    public byte[] drain() {
        process.lock.lock();
        try {
            pull();
            byte[] out = Arrays.copyOfRange(pending, head, tail);
            head = tail;
            scanned = tail;
            return out;
        } finally {
            process.lock.unlock();
        }
    }

    /** Like {@link #drain()}, as UTF-8 text. */
    public String drainText() {
        return new String(drain(), StandardCharsets.UTF_8);
    }

    /**
     * The client's write end as a stream: what is written reaches the server's fd 0, and
     * {@code close()} is {@link #closeInput()}.
     */
    public OutputStream toServer() {
        return ByteStreams.output((b, off, len) -> sendBytes(Arrays.copyOfRange(b, off, off + len)), this::closeInput);
    }

    /**
     * What the server writes, as a stream: a read waits for bytes and gives -1 at end of output
     * (every server write end closed). It takes from the same bytes as {@link #readLine}.
     */
    public InputStream fromServer() {
        return ByteStreams.input(this::readSome);
    }

    private int readSome(byte[] b, int off, int len) throws InterruptedIOException {
        process.lock.lock();
        try {
            while (true) {
                pull();
                if (tail > head || len == 0) {
                    int n = Math.min(len, tail - head);
                    System.arraycopy(pending, head, b, off, n);
                    head += n;
                    scanned = Math.max(scanned, head);
                    return n;
                }
                if (toClient.writers == 0) {
                    return -1;
                }
                process.changed.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the server's output");
        } finally {
            process.lock.unlock();
        }
    }

    /** Whether the server has closed every write end of the pipe to the client. */
    public boolean serverClosedOutput() {
        process.lock.lock();
        try {
            return toClient.writers == 0;
        } finally {
            process.lock.unlock();
        }
    }

    private void pull() {
        int n = toClient.available();
        if (n == 0) {
            return;
        }
        if (tail + n > pending.length) {
            int live = tail - head;
            byte[] into = live + n > pending.length ? new byte[Math.max(pending.length * 2, live + n)] : pending;
            System.arraycopy(pending, head, into, 0, live);
            pending = into;
            scanned -= head;
            head = 0;
            tail = live;
        }
        tail += toClient.take(pending, tail, n);
        process.changed.signalAll(); // a writer blocked on a full pipe may go on
    }
}
