package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that dies while a helper it started still holds the write end of the server's stdin, as
 * a forked child or an inheritable handle does: end of input never comes, and the demo server
 * still ends with its host.
 */
class HostDeathTest {
    @TempDir
    Path dir;

    /**
     * The host: a shell that starts the helper (which sends one request, then holds the fifo open)
     * and the server on the fifo, waits for the answer, and exits.
     */
    private static final String HOST = "f=$1; o=$2; p=$3; shift 3; mkfifo \"$f\"; "
            + "{ printf '%s\\n' \"$REQUEST\"; exec sleep 120; } > \"$f\" & echo $! > \"$p.helper\"; "
            + "\"$@\" < \"$f\" > \"$o\" 2> \"$o.err\" & echo $! > \"$p\"; "
            + "while ! grep -q '\"id\":1' \"$o\" 2>/dev/null; do sleep 0.05; done; exit 0";

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the host is a POSIX shell with a fifo")
    void whenTheHostDiesWhileAHelperHoldsStdinOpenTheServerExitsWithinThreeSeconds() throws Exception {
        Path fifo = dir.resolve("stdin");
        Path out = dir.resolve("out");
        Path pid = dir.resolve("pid");
        List<String> command = new ArrayList<>(List.of("sh", "-c", HOST, "sh", fifo.toString(), out.toString(), pid.toString()));
        command.addAll(DemoSessionTest.serverCommand());
        ProcessBuilder host = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("host.log").toFile());
        host.environment().put("REQUEST", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        Process p = host.start();
        ProcessHandle helper = null;
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the host got its answer and exited");
            assertEquals(0, p.exitValue(), Files.readString(dir.resolve("host.log")));
            long hostGone = System.nanoTime();
            helper = handle(pid.resolveSibling("pid.helper")).orElse(null);
            assertTrue(helper != null && helper.isAlive(), "the helper still holds the server's stdin open");
            ProcessHandle server = handle(pid).orElseThrow();
            // A wait for a state, bounded by the promise made to hosts: ended within 3 s of its host.
            server.onExit().get(10, TimeUnit.SECONDS);
            long took = System.nanoTime() - hostGone;
            String err = Files.readString(dir.resolve("out.err"), StandardCharsets.UTF_8);
            assertTrue(took < TimeUnit.SECONDS.toNanos(3), "ended " + TimeUnit.NANOSECONDS.toMillis(took)
                    + " ms after its host\n" + err);
            assertTrue(err.contains("the process that started this server exited"), err);
            assertTrue(Files.readString(out).startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"), "answered before");
        } finally {
            p.destroyForcibly();
            if (helper != null) {
                helper.destroyForcibly();
            }
            handle(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private static Optional<ProcessHandle> handle(Path pidFile) throws Exception {
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
    }
}
