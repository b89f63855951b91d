package io.mcpwire.check;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The server under check, as a child process: every line of its stdout is judged as it arrives
 * (a JSON-RPC message, stray text, or stray text glued in front of a message) and stamped with
 * the {@link Phase} of the session; its stderr is kept.
 */
final class ServerProcess {
    private static final String MESSAGE_START = "{\"jsonrpc\"";
    private static final int QUOTE = 200;

    private final Process process;
    private final JsonRpcCodec codec = JsonRpcCodec.standard();
    private final BlockingQueue<JsonRpcMessage> messages = new LinkedBlockingQueue<>();
    private final List<Finding> findings = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread stdoutReader;
    private final Thread stderrReader;
    private volatile Phase phase = Phase.BEFORE_INITIALIZE;

    private ServerProcess(Process process) {
        this.process = process;
        this.stdoutReader = daemon(() -> readLines(process.getInputStream()), "check-stdout");
        this.stderrReader = daemon(() -> copy(process.getErrorStream()), "check-stderr");
    }

    /** Starts {@code command}; throws when it cannot be started at all. */
    static ServerProcess start(List<String> command) throws IOException {
        ServerProcess p = new ServerProcess(new ProcessBuilder(command).start());
        p.stdoutReader.start();
        p.stderrReader.start();
        return p;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    void phase(Phase now) {
        phase = now;
    }

    /** Writes one message line to the server's stdin; false when the server has gone. */
    boolean send(String line) {
        try {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Closes the server's stdin: end of input. */
    void endInput() {
        phase = Phase.AFTER_END_OF_INPUT;
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already gone
        }
    }

    /** The next message from the server, or null when none came in time. */
    JsonRpcMessage next(Duration timeout) throws InterruptedException {
        return messages.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Waits for the process to exit; its status, or empty when it did not (then it is killed). */
    java.util.OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            stdoutReader.join(2_000); // the last lines it wrote
            stderrReader.join(2_000);
            return java.util.OptionalInt.of(process.exitValue());
        }
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
        return java.util.OptionalInt.empty();
    }

    /** Kills the server if it still runs. */
    void kill() {
        process.destroyForcibly();
    }

    List<Finding> findings() {
        return findings;
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    private void readLines(InputStream out) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = out.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        judge(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else {
                        line.write(buffer[i]);
                    }
                }
            }
        } catch (IOException e) {
            // the server closed its stdout
        }
        if (line.size() > 0) {
            String rest = line.toString(StandardCharsets.UTF_8);
            findings.add(new Finding(Finding.Kind.STRAY_OUTPUT, phase, "bytes without a final newline: " + quote(rest),
                    Advice.forStray(rest)));
        }
    }

    private void judge(String raw) {
        String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
        if (line.isBlank()) {
            return; // a host skips blank lines
        }
        if (decode(line)) {
            return;
        }
        int start = line.indexOf(MESSAGE_START);
        if (start > 0 && decode(line.substring(start))) {
            String glued = line.substring(0, start);
            findings.add(new Finding(Finding.Kind.GLUED_OUTPUT, phase, quote(glued)
                    + " glued in front of a message (a print without a newline): a host drops that message",
                    Advice.forStray(glued)));
            return;
        }
        findings.add(new Finding(Finding.Kind.STRAY_OUTPUT, phase, quote(line), Advice.forStray(line)));
    }

    private boolean decode(String line) {
        if (codec.decode(line) instanceof DecodeResult.Decoded d) {
            messages.add(d.message());
            return true;
        }
        return false;
    }

    private void copy(InputStream err) {
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = err.read(buffer)) > 0) {
                synchronized (stderr) {
                    stderr.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            // the server closed its stderr
        }
    }

    static String quote(String text) {
        String t = text.length() > QUOTE ? text.substring(0, QUOTE) + "..." : text;
        return "\"" + t.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t") + "\"";
    }
}
