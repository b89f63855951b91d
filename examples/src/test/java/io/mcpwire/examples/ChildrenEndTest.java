package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.ChildJvm;
import io.mcpwire.platform.test.harness.LingeringChildren;
import io.mcpwire.platform.test.harness.ServerEnding;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing a server on mcpwire's transport started outlives it: a tool's {@code sleep 600} and a
 * shell's background {@code sleep 600} end with the server at end of input, on SIGTERM and when its
 * host dies with stdin held elsewhere, unless {@code mcpwire.children=leave}, and so they do when
 * the claim's owner keeps it and never puts it back; and SIGTERM answers the calls in flight before
 * the server exits.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the tool's processes are sleep and sh, the host a POSIX shell")
class ChildrenEndTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static List<String> server(String... options) {
        return server(List.of(options), List.of());
    }

    private static List<String> server(List<String> options, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java()));
        command.addAll(ChildJvm.conventions());
        command.addAll(options);
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED",
                "-cp", ChildJvm.path() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath(),
                ChildStartingServer.class.getName()));
        command.addAll(arguments);
        return command;
    }

    @Test
    void onSigtermTheyEndEvenWhenTheClaimsOwnerNeverPutsItBack() throws Exception {
        ServerEnding.Outcome o = ServerEnding.run(server(List.of(), List.of("--kept-claim")), ServerEnding.Ending.SIGTERM, WAIT);
        assertTrue(o.allEnded(), o.describe());
        assertEquals(128 + 15, o.exitCode().orElseThrow(), "the status SIGTERM gives\n" + o.describe());
    }

    @Test
    void atEndOfInputTheyEndEvenWhenTheClaimsOwnerNeverPutsItBack() throws Exception {
        ServerEnding.Outcome o = ServerEnding.run(server(List.of(), List.of("--kept-claim")), ServerEnding.Ending.END_OF_INPUT, WAIT);
        assertTrue(o.allEnded(), o.describe());
    }

    @Test
    void atEndOfInputTheServerAndEveryProcessItsToolStartedEnd() throws Exception {
        ServerEnding.Outcome o = ServerEnding.run(server(), ServerEnding.Ending.END_OF_INPUT, WAIT);
        assertTrue(o.allEnded(), o.describe());
        assertEquals(0, o.exitCode().orElseThrow(), o.describe());
    }

    @Test
    void onSigtermTheServerAndEveryProcessItsToolStartedEndWithSigtermsStatus() throws Exception {
        ServerEnding.Outcome o = ServerEnding.run(server(), ServerEnding.Ending.SIGTERM, WAIT);
        assertTrue(o.allEnded(), o.describe());
        assertEquals(128 + 15, o.exitCode().orElseThrow(), "the status SIGTERM gives\n" + o.describe());
    }

    @Test
    void whenTheHostDiesWithStdinHeldElsewhereTheyEndToo() throws Exception {
        ServerEnding.Outcome o = ServerEnding.runUnderADyingHost(server(), dir, WAIT);
        assertTrue(o.allEnded(), o.describe());
    }

    @Test
    void withChildrenLeaveTheyOutliveTheServer() throws Exception {
        ServerEnding.Outcome o = ServerEnding.run(server("-Dmcpwire.children=leave"), ServerEnding.Ending.END_OF_INPUT, WAIT);
        assertTrue(o.ended().isPresent() && o.pids().size() == 3, o.describe());
        assertEquals(o.pids(), o.outlived(), "all three still ran\n" + o.describe());
    }

    @Test
    void sigtermAnswersTheCallsInFlightThenTheServerExits() throws Exception {
        ServerEnding.Outcome o = ServerEnding.sigtermWithCallsInFlight(server(), 3, WAIT);
        for (int id = 1; id <= 3; id++) {
            int answered = id;
            assertTrue(o.stdout().lines().anyMatch(l -> l.contains("\"id\":" + answered + ",") && l.contains("slept "
                    + LingeringChildren.SLOW.toMillis() + " ms")), "call " + id + " answered\n" + o.describe());
        }
        assertEquals(4, o.stdout().lines().count(), "initialize and the three calls answered, nothing else\n" + o.describe());
        assertEquals(128 + 15, o.exitCode().orElseThrow(), o.describe());
    }
}
