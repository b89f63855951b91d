package io.mcpwire.stdio.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.stdio.Children;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** What ending the processes the server started reaches: those that run when it begins, and those they start as they end. */
@EnabledOnOs(value = OS.LINUX, disabledReason = "the child is a POSIX shell, its session read from /proc")
class ChildProcessesTest {

    @Test
    @Timeout(60)
    void aProcessStartedByOneThatIgnoredTheRequestToEndIsEndedForciblyWithIt() throws Exception {
        // A shell that answers SIGTERM by starting another process, says its pid, and runs on.
        Process shell = new ProcessBuilder("sh", "-c",
                "trap 'sleep 600 & echo $!' TERM; echo ready; while :; do sleep 0.05; done")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.US_ASCII));
        try {
            assertEquals("ready", out.readLine());
            new ChildProcesses(Children.END, Duration.ofSeconds(1)).end(DescriptorTable.PROCESS);
            String started = out.readLine(); // the trap ran while the shell was asked to end
            assertNotNull(started, "the shell's trap started nothing");
            long late = Long.parseLong(started.strip());
            Optional<ProcessHandle> handle = ProcessHandle.of(late);
            if (handle.isPresent()) {
                try {
                    handle.get().onExit().get(10, TimeUnit.SECONDS); // an end is seen a moment after it
                } catch (TimeoutException e) {
                    // alive, or a zombie that an init which does not reap keeps: the assertion below tells
                }
            }
            assertFalse(runs(late), "the process started during the grace still runs");
            shell.waitFor();
        } finally {
            shell.destroyForcibly();
        }
    }

    /** Whether process {@code pid} runs: there, and not a zombie ({@code /proc/PID/stat}'s state after the command). */
    private static boolean runs(long pid) throws java.io.IOException {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String s;
        try {
            s = Files.readString(stat, StandardCharsets.ISO_8859_1);
        } catch (java.nio.file.NoSuchFileException e) {
            return false; // gone while read
        }
        return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
    }
}
