package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.DetachedLauncher;
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
        for (DyingHost.Launch launch : DyingHost.Launch.values()) {
            assertEndsWithItsHost(DyingHost.run(server, launch, DyingHost.INITIALIZE, Files.createDirectories(dir.resolve(launch.name())), Duration.ofSeconds(15)));
        }
        DetachedLauncher.Outcome detached = DetachedLauncher.run(server, DyingHost.INITIALIZE,
                DetachedLauncher.INITIALIZED_AND_PING, Duration.ofSeconds(3), Files.createDirectories(dir.resolve("detached")),
                Duration.ofSeconds(30));
        assertTrue(detached.answeredAfterTheLauncher(), "a launcher that exits at once does not end the session\n" + detached.stderr());
    }

    private static void assertEndsWithItsHost(DyingHost.Outcome o) {
        assertTrue(o.helperHeld() && o.wrapperLived(), "the helper still held the server's stdin open, and any wrapper lived");
        assertTrue(o.keptThePromise(), "ended " + o.outlived() + " after its host\n" + o.stderr());
        assertTrue(o.stderr().contains("the process that started this server exited"), o.stderr());
        assertTrue(o.stdout().contains("\"id\":1"), "answered before: " + o.stdout());
    }
}
