package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.DetachedLauncher;
import io.mcpwire.platform.test.harness.DyingHost;
import java.nio.file.Path;
import java.time.Duration;
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

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the host is a POSIX shell with a fifo")
    void whenTheHostDiesWhileAHelperHoldsStdinOpenTheServerExitsWithinThreeSeconds() throws Exception {
        DyingHost.Outcome o = DyingHost.run(DemoSessionTest.serverCommand(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                dir, Duration.ofSeconds(10));
        assertTrue(o.helperHeld(), "the helper still held the server's stdin open");
        assertTrue(o.keptThePromise(), "ended " + o.outlived() + " after its host\n" + o.stderr());
        assertTrue(o.stderr().contains("the process that started this server exited"), o.stderr());
        assertTrue(o.stdout().startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"), "answered before");
    }

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the host is a POSIX shell with a fifo")
    void throughAWrapperThatWaitsForItTheServerStillEndsWithItsHost() throws Exception {
        DyingHost.Outcome o = DyingHost.run(DemoSessionTest.serverCommand(), DyingHost.Launch.THROUGH_A_WRAPPER,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", dir, Duration.ofSeconds(10));
        assertTrue(o.helperHeld() && o.wrapperLived(), "the helper held stdin, and the wrapper lived, when the host died");
        assertTrue(o.keptThePromise(), "ended " + o.outlived() + " after its host\n" + o.stderr());
    }

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the launcher is a POSIX shell with a fifo")
    void aLauncherThatExitsAtOnceOnPurposeDoesNotEndTheSession() throws Exception {
        DetachedLauncher.Outcome o = DetachedLauncher.run(DemoSessionTest.serverCommand(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
                Duration.ofSeconds(3), dir, Duration.ofSeconds(30));
        assertTrue(o.answeredAfterTheLauncher(), "the session went on after its launcher left\n" + o.stdout() + o.stderr());
    }
}
