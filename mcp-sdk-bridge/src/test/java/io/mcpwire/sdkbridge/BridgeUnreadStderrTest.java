package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.UnreadStderrHost;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An official-SDK server over the bridge, under a host that leaves its stderr pipe unread: a tool
 * that prints 1 MiB to {@code System.out}, then 1 MiB to {@code System.err}, is answered in time, and
 * the server ends at end of input with the drop counted in its log.
 */
class BridgeUnreadStderrTest {
    @Test
    void aToolThatFloodsAnUnreadStderrIsAnsweredInTime() throws Exception {
        String classPath = Files.readString(Path.of("target", "test-classpath.txt")).strip() + File.pathSeparator
                + Path.of("target", "test-classes").toAbsolutePath() + File.pathSeparator + Path.of("target", "classes").toAbsolutePath();
        List<String> server = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
                NoisyOfficialServer.class.getName(), "--no-child");
        UnreadStderrHost.Outcome o = UnreadStderrHost.run(server, "spill", "{}");
        assertTrue(o.answer().contains("printed 1024 KiB"), () -> "answered: " + o.answer());
        assertTrue(o.answeredInTime(), () -> "answered after " + o.answeredIn());
        assertEquals(Optional.of(0), o.exitCode(), "ended at end of input");
        assertTrue(o.stderr().matches("(?s).*\\d+ bytes of stray output dropped: stderr was not being read.*"),
                () -> "the drop is counted in the log: ..." + o.stderr().substring(Math.max(0, o.stderr().length() - 2000)));
    }
}
