package io.mcpwire.check;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The wire to an MCP stdio server, as a host holds it: the server's stdin to write messages to,
 * and its stdout, read on a thread of its own and judged line by line as it arrives (a JSON-RPC
 * message, stray text, or stray text glued in front of a message). Each finding is stamped with
 * the {@link Phase} of the session at the time. Thread-safe.
 */
public final class ServerWire {
    private static final String MESSAGE_START = "{\"jsonrpc\"";
    private static final int QUOTE = 200;

    private final OutputStream stdin;
    /** The standard codec's bounds but the token count: a host in Node or Python would take an answer of any number of tokens. */
    private final JsonRpcCodec codec = new JsonRpcCodec(new JsonRpcCodec.Limits(JsonRpcCodec.Limits.DEFAULT.maxNestingDepth(),
            JsonRpcCodec.Limits.DEFAULT.maxStringLength(), JsonRpcCodec.Limits.DEFAULT.maxNumberLength(),
            JsonRpcCodec.Limits.DEFAULT.maxNameLength(), Integer.MAX_VALUE));
    /** The messages in the order read; an empty one marks the end of the server's stdout. */
    private final BlockingQueue<Optional<JsonRpcMessage>> messages = new LinkedBlockingQueue<>();
    private final List<Finding> findings = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private final long started;
    private volatile long firstAnswer; // 0 until the first answer arrived
    private volatile Phase phase = Phase.BEFORE_INITIALIZE;
    private volatile boolean outputEnded;

    /**
     * Starts reading {@code stdout}.
     *
     * @param stdin  the server's standard input
     * @param stdout the server's standard output
     */
    public ServerWire(OutputStream stdin, InputStream stdout) {
        this.started = System.nanoTime();
        this.stdin = stdin;
        this.reader = new Thread(() -> readLines(stdout), "check-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Time from this wire's start (the server's) to the first answer it carried; empty before one came. */
    public OptionalDouble firstAnswerMillis() {
        long at = firstAnswer;
        return at == 0 ? OptionalDouble.empty() : OptionalDouble.of((at - started) / 1e6);
    }

    /** Moves the session on to {@code now}; output from here on is stamped with it. */
    public void phase(Phase now) {
        phase = now;
    }

    /** Writes one message line to the server's stdin; false when the server no longer reads it. */
    public synchronized boolean send(String line) {
        try {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Closes the server's stdin: end of input, as a host does when it ends the session. */
    public synchronized void endInput() {
        phase = Phase.AFTER_END_OF_INPUT;
        try {
            stdin.close();
        } catch (IOException e) {
            // the server has gone already
        }
    }

    /**
     * The next message from the server; null when none came within {@code timeout}, or at once
     * when the server's stdout has ended and every message it carried was taken.
     */
    public JsonRpcMessage next(Duration timeout) throws InterruptedException {
        Optional<JsonRpcMessage> m = messages.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (m == null) {
            return null;
        }
        if (m.isEmpty()) {
            messages.add(m); // still ended for the next caller
            return null;
        }
        return m.get();
    }

    /** Whether the server's stdout has ended (it closed it, or exited). */
    public boolean outputEnded() {
        return outputEnded;
    }

    /** Waits up to {@code timeout} for the server's stdout to end; whether it did. */
    public boolean awaitEndOfOutput(Duration timeout) throws InterruptedException {
        reader.join(Math.max(1, timeout.toMillis()));
        return !reader.isAlive();
    }

    /** What was wrong on stdout so far, in the order seen. */
    public List<Finding> findings() {
        return List.copyOf(findings);
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
        outputEnded = true; // before the marker: whoever takes the marker sees it
        messages.add(Optional.empty());
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
            if (firstAnswer == 0 && d.message() instanceof JsonRpcResponse) {
                firstAnswer = System.nanoTime();
            }
            messages.add(Optional.of(d.message()));
            return true;
        }
        return false;
    }

    static String quote(String text) {
        String t = text.length() > QUOTE ? text.substring(0, QUOTE) + "..." : text;
        return "\"" + t.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t") + "\"";
    }
}
