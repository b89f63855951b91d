package io.mcpwire.platform.posix;

import io.mcpwire.platform.test.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Starts {@link ChildSession} in a child JVM and collects what it printed and reported. */
final class ChildSessions {

    /** What a finished child left behind: its output, and the lines of its report file. */
    record Result(ChildJvm.Result process, List<String> report) {
        int exitCode() {
            return process.exitCode();
        }

        String stdout() {
            return process.stdout();
        }

        String stderr() {
            return process.stderr();
        }

        boolean reported(String line) {
            return report.contains(line);
        }

        String describe() {
            return "report:\n  " + String.join("\n  ", report) + "\n" + process.describe();
        }
    }

    private ChildSessions() {
    }

    /** The plain {@code java -p ... -m ...} command that runs {@code ChildSession mode report}. */
    static List<String> command(String mode, Path report) {
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=com.sun.jna", "-p", ChildJvm.path(),
                // The child program lives in this module's test classes.
                "--patch-module", "io.mcpwire.platform.posix=" + Path.of("target", "test-classes").toAbsolutePath(),
                "--add-modules", "io.mcpwire.stdio,io.mcpwire.platform.test",
                "--add-reads", "io.mcpwire.platform.posix=io.mcpwire.stdio,io.mcpwire.platform.test",
                "-m", "io.mcpwire.platform.posix/" + ChildSession.class.getName(), mode, report.toString()));
        return cmd;
    }

    /** Runs the child with {@code input} on its stdin, closed afterwards unless {@code keepStdinOpen}. */
    static Result run(List<String> command, Path report, String input, boolean keepStdinOpen) throws Exception {
        Files.deleteIfExists(report);
        ChildJvm.Result r = ChildJvm.run(command, input, keepStdinOpen, Duration.ofSeconds(120));
        return new Result(r, Files.exists(report) ? Files.readAllLines(report) : List.of());
    }
}
