package io.mcpwire.benchmarks.harness;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One running server: its stdin and stdout as pipes, stderr discarded (or a pipe read to its end,
 * as a host that shows the server's log reads it), and its memory. A server
 * that gives no output for {@value #STALL_SECONDS} s while an answer is awaited is killed, so that
 * a stalled peer reads as end of output rather than hanging the run; so is one that has not exited
 * 2 s after its close began (it may have stopped reading its stdin, with a write to it blocked):
 * nothing is measured after a close, and some servers never end at end of input.
 */
final class PeerProcess implements AutoCloseable {
    /** How long a read waits for output before the server is taken for stalled; no peer that works pauses a tenth of it. */
    static final int STALL_SECONDS = 20;
    private static final long STALL_NANOS = STALL_SECONDS * 1_000_000_000L;

    private final Process process;
    private static final int CLOSE_SECONDS = 2;
    private static final long CLOSE_NANOS = CLOSE_SECONDS * 1_000_000_000L;

    private volatile long awaitingSince; // 0 when no read is pending
    private volatile long closingSince; // 0 until close() begins
    private volatile boolean stalled;
    private final OutputStream in;
    private final InputStream out;
    private byte[] buffer = new byte[1 << 16];
    private int start;
    private int end;

    PeerProcess(List<String> command, Path dir) throws IOException {
        this(command, dir, false);
    }

    /** A server whose stderr is a pipe, read and thrown away by a thread of its own when {@code readStderr}. */
    PeerProcess(List<String> command, Path dir, boolean readStderr) throws IOException {
        this(new ProcessBuilder(command).directory(dir.toFile())
                .redirectError(readStderr ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.DISCARD), readStderr);
    }

    /** A server whose stderr goes where {@code builder} says (a training run's log, say). */
    PeerProcess(ProcessBuilder builder) throws IOException {
        this(builder, false);
    }

    private PeerProcess(ProcessBuilder builder, boolean readStderr) throws IOException {
        process = builder.start();
        if (readStderr) {
            Thread reader = new Thread(() -> {
                try (InputStream err = process.getErrorStream()) {
                    err.transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                    // the server has gone
                }
            }, "bench-stderr-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }
        in = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
        out = process.getInputStream();
        Thread watchdog = new Thread(this::watch, "bench-watchdog-" + process.pid());
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private void watch() {
        try {
            while (process.isAlive()) {
                Thread.sleep(1000);
                long since = awaitingSince;
                long closing = closingSince;
                if ((since != 0 && System.nanoTime() - since > STALL_NANOS)
                        || (closing != 0 && System.nanoTime() - closing > CLOSE_NANOS)) {
                    stalled = true;
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long pid() {
        return process.pid();
    }

    void send(byte[] line) throws IOException {
        in.write(line);
        in.flush();
    }

    OutputStream input() {
        return in;
    }

    /** The next line, without its newline, or null at end of output. */
    byte[] readLine() throws IOException {
        int e = lineEnd();
        if (e < 0) {
            return null;
        }
        byte[] line = java.util.Arrays.copyOfRange(buffer, start, e);
        start = e + 1;
        return line;
    }

    /** Gives the next line, without its newline, to {@code visitor}, in this process's buffer; false at end of output. */
    boolean readLine(LineVisitor visitor) throws IOException {
        int e = lineEnd();
        if (e < 0) {
            return false;
        }
        int from = start;
        start = e + 1;
        visitor.line(buffer, from, e - from);
        return true;
    }

    /** Skips the next line and returns its request id (the number after {@code "id":}), -1 if none, -2 at end. */
    long readId() throws IOException {
        int e = lineEnd();
        if (e < 0) {
            return -2;
        }
        long id = idIn(buffer, start, e);
        start = e + 1;
        return id;
    }

    /** The index of the next newline, reading as needed; -1 at end of output. */
    private int lineEnd() throws IOException {
        int scan = start;
        while (true) {
            for (; scan < end; scan++) {
                if (buffer[scan] == '\n') {
                    return scan;
                }
            }
            if (start > 0) {
                System.arraycopy(buffer, start, buffer, 0, end - start);
                end -= start;
                scan -= start;
                start = 0;
            }
            if (end == buffer.length) {
                buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
            }
            awaitingSince = System.nanoTime();
            int n = out.read(buffer, end, buffer.length - end);
            awaitingSince = 0;
            if (n < 0) {
                return -1;
            }
            end += n;
        }
    }

    private static final byte[] ID = "\"id\":".getBytes(StandardCharsets.US_ASCII);

    static long idIn(byte[] b, int from, int to) {
        outer:
        for (int i = from; i + ID.length < to; i++) {
            for (int k = 0; k < ID.length; k++) {
                if (b[i + k] != ID[k]) {
                    continue outer;
                }
            }
            long v = 0;
            int j = i + ID.length;
            boolean digits = false;
            while (j < to && b[j] >= '0' && b[j] <= '9') {
                v = v * 10 + (b[j++] - '0');
                digits = true;
            }
            return digits ? v : -1;
        }
        return -1;
    }

    /** A line of /proc/PID/status in KiB (VmRSS, VmHWM), or -1 where there is no /proc. */
    long statusKib(String field) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (l.startsWith(field + ":")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Resets the peak resident size (VmHWM) to the current one, where Linux allows it. */
    void resetPeak() {
        try {
            Files.writeString(Path.of("/proc", Long.toString(pid()), "clear_refs"), "5");
        } catch (IOException | RuntimeException e) {
            // not Linux, or not allowed: the peak then counts from start-up
        }
    }

    /** Whether the watchdog killed it for giving no output while an answer was awaited. */
    boolean stalled() {
        return stalled;
    }

    /** Ends the process at once, without a close: for a cold start, once its one answer is in. */
    void kill() {
        closingSince = System.nanoTime();
        try {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the process has ended. */
    boolean ended() {
        return !process.isAlive();
    }

    /** Asks the process to end as a signal would (SIGTERM), so that a JVM still runs its exit. */
    void terminate() {
        process.destroy();
    }

    /** Waits up to {@code seconds} for the process to end; whether it did. */
    boolean awaitEnd(int seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    /** Closes its stdin, and nothing else: the end of input a host gives. */
    void endInput() {
        try {
            in.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    @Override
    public void close() {
        closingSince = System.nanoTime();
        try {
            in.close(); // blocks while a writer is stuck on a peer that stopped reading, until the watchdog kills it
        } catch (IOException ignored) {
            // already gone
        }
        try {
            if (!process.waitFor(CLOSE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
