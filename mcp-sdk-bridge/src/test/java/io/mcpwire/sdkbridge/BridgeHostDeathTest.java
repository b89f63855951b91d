package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.DyingHost;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * An official-SDK server over the bridge, whose JVM the bridge's session keeper holds until the
 * session ends, ends within 3 s of its host's death while a helper still holds its stdin open: the
 * SDK's session close, called back from the close the host's death began, closes the transport
 * again without waiting for itself.
 */
class BridgeHostDeathTest {
    @TempDir
    Path dir;

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the host is a POSIX shell with a fifo")
    void anOfficialSdkServerOverTheBridgeEndsWithItsHost() throws Exception {
        // The class path the build writes for running the test servers by hand, as .ci/run does.
        String classPath = Files.readString(Path.of("target", "test-classpath.txt")).strip() + File.pathSeparator
                + Path.of("target", "test-classes").toAbsolutePath() + File.pathSeparator + Path.of("target", "classes").toAbsolutePath();
        List<String> server = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
                NoisyOfficialServer.class.getName(), "--no-child");
        DyingHost.Outcome o = DyingHost.run(server, DyingHost.INITIALIZE, dir, Duration.ofSeconds(15));
        assertTrue(o.helperHeld(), "the helper still held the server's stdin open");
        assertTrue(o.keptThePromise(), "ended " + o.outlived() + " after its host\n" + o.stderr());
        assertTrue(o.stderr().contains("the process that started this server exited"), o.stderr());
        assertTrue(o.stdout().contains("\"id\":1"), "answered before: " + o.stdout());
    }
}
