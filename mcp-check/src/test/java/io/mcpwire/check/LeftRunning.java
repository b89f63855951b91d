package io.mcpwire.check;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Ends the processes a report found left running: a test's clean-up. */
final class LeftRunning {
    private static final Pattern PID = Pattern.compile("pid (\\d+):");

    private LeftRunning() {
    }

    static void kill(Report report) {
        for (Finding f : report.findings()) {
            Matcher m = PID.matcher(f.detail());
            if (f.kind() == Finding.Kind.LEFT_RUNNING && m.find()) {
                ProcessHandle.of(Long.parseLong(m.group(1))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
