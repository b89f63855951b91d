package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The demo server in a child JVM over real pipes, started with a plain {@code java -p ... -m ...}:
 * the demo client's two sessions, one in each protocol era.
 */
class DemoSessionTest {

    static List<String> serverCommand() {
        String modulePath = Path.of("target", "modules").toAbsolutePath() + File.pathSeparator
                + Path.of("target", "classes").toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(ChildJvm.conventions());
        command.addAll(List.of("--enable-native-access=" + DemoClient.nativeAccessModules(), "-p", modulePath,
                "-m", "io.mcpwire.examples/" + DemoServer.class.getName()));
        return command;
    }

    @Test
    void theDemoSessionPassesAndEveryByteOnTheServersStdoutIsJsonRpc() throws Exception {
        DemoClient.Report r = DemoClient.run(serverCommand());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        DemoClient.print(r, new PrintStream(text, true, StandardCharsets.UTF_8));
        String report = text.toString(StandardCharsets.UTF_8);
        assertTrue(r.passed(), report + "\nstderr:\n" + r.stderr());
        assertEquals(12, r.steps().size(), "8 legacy steps, 4 modern: " + report);
        assertTrue(report.contains("ok   modern: server/discover      versions 2026-07-28"), report);
        assertEquals(12, r.messages(), "one message per answer, nothing else: " + report);
        assertTrue(r.stderr().contains("stdio claimed through"), r.stderr());
        for (String stray : List.of("noisy: System.out.println from a tool", "noisy: child stdout",
                "noisy: System.out.write without newline or flush")) {
            assertTrue(r.stderr().contains(stray), () -> "'" + stray + "' is on stderr:\n" + r.stderr());
        }
        assertTrue(report.endsWith("PASS: every answer arrived and the wire carried nothing but JSON-RPC" + System.lineSeparator()), report);
    }

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the redirect is a POSIX shell's")
    void underStderrMergedIntoStdoutTheServerWritesNothingButJsonRpcFromStartToExit() throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", "-c", "exec \"$@\" 2>&1", "sh"));
        command.addAll(serverCommand());
        DemoClient.Report r = DemoClient.run(command);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        DemoClient.print(r, new PrintStream(text, true, StandardCharsets.UTF_8));
        String report = text.toString(StandardCharsets.UTF_8);
        // The noisy tool prints, logs and starts a child: with fd 2 the wire, all of it is diverted,
        // and after the release the server stays silent.
        assertTrue(r.passed(), report);
        assertEquals(12, r.messages(), "one message per answer, nothing else, up to the exit (both sessions): " + report);
    }
}
