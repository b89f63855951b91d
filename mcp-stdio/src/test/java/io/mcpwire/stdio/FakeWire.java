package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpwire.platform.test.FakeProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Helpers to serve one exchange over a claim on a fake process. */
final class FakeWire {
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final String REQUEST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    static final String RESPONSE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";

    private FakeWire() {
    }

    /**
     * Reads one line without its newline, in chunks as a transport would (one read per chunk);
     * null at end of input before any byte. Bytes after the newline are dropped: the tests send
     * one line at a time.
     */
    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] chunk = new byte[65536];
        while (true) {
            int n = in.read(chunk, 0, chunk.length);
            if (n < 0) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
            }
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    line.write(chunk, 0, i);
                    return line.toString(StandardCharsets.UTF_8);
                }
            }
            line.write(chunk, 0, n);
        }
    }

    static void writeLine(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The client sends a request, the server answers it over the claim, the client reads it. */
    static void exchange(FakeProcess fake, StdioClaim claim) throws IOException {
        fake.client().send(REQUEST);
        assertEquals(REQUEST, readLine(claim.input()), "the server receives the request");
        writeLine(claim.output(), RESPONSE);
        assertEquals(RESPONSE, fake.client().readLine(TIMEOUT), "the client receives the response");
    }

    /** The descriptor at or above 3 that refers to fd's wire (the private duplicate), or -1. */
    static int privateDuplicate(FakeProcess fake, int fd) {
        for (int d = 3; d < FakeProcess.TABLE_SIZE; d++) {
            if (fake.refersToWireOf(d, fd)) {
                return d;
            }
        }
        return -1;
    }

    /** Reads fd through the fake's own stream: what anything else in the process would read. */
    static int readOnce(FakeProcess fake, int fd) throws IOException {
        try (var s = fake.open(fd)) {
            return s.read(new byte[16], 0, 16);
        }
    }

    /** Writes to fd through the fake's own stream: what anything else in the process would write. */
    static void writeStray(FakeProcess fake, int fd, String text) throws IOException {
        try (var s = fake.open(fd)) {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            s.write(b, 0, b.length);
        }
    }
}
