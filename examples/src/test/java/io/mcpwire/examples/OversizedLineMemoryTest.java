package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A client that streams a line far over the size limit in pieces, then a ping: the line is refused,
 * the ping answered, and the demo server's peak resident memory grows by no more than the limit and
 * 32 MiB over its idle peak, however long the line. Measured from {@code /proc} in a child JVM.
 */
@EnabledOnOs(value = OS.LINUX, disabledReason = "reads a child's peak resident memory from /proc/PID/status")
class OversizedLineMemoryTest {
    private static final long MIB = 1024 * 1024;
    private static final long LIMIT = 16 * MIB; // the transport's default message limit

    @Test
    void aTwoHundredMebibyteLineCostsTheLimitAndABoundedAmountMore() throws Exception {
        Process server = new ProcessBuilder(DemoSessionTest.serverCommand()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = server.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"memory\",\"version\":\"1\"}}}\n");
            assertTrue(out.readLine().contains("\"id\":0"));
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
            assertTrue(out.readLine().contains("\"id\":1"));
            long idle = peakResidentBytes(server.pid());

            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"x\":\"");
            byte[] piece = new byte[64 * 1024];
            Arrays.fill(piece, (byte) 'a');
            for (long sent = 0; sent < 200 * MIB; sent += piece.length) {
                in.write(piece);
                in.flush(); // in pieces, as a client streams it
            }
            send(in, "\"}}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n");
            String refused = out.readLine();
            assertTrue(refused.contains("\"code\":-32600") && refused.contains("exceeds the limit"), refused);
            assertTrue(out.readLine().contains("\"id\":3"), "serving goes on");
            long grown = peakResidentBytes(server.pid()) - idle;
            assertTrue(grown <= LIMIT + 32 * MIB, "peak resident memory grew by " + grown / MIB + " MiB over idle");
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void send(OutputStream in, String text) throws IOException {
        in.write(text.getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** VmHWM: the most resident memory the process has had. */
    private static long peakResidentBytes(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmHWM in /proc/" + pid + "/status");
    }
}
