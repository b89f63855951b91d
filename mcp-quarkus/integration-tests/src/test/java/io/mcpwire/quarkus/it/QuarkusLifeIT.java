package io.mcpwire.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.DyingHost;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The application ends with its host, though another process still holds its stdin open. */
class QuarkusLifeIT {
    @TempDir
    Path dir;

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the host is a POSIX shell with a fifo")
    void whenTheHostDiesWhileAHelperHoldsStdinTheApplicationExitsWithinThreeSeconds() throws Exception {
        DyingHost.Outcome o = DyingHost.run(QuarkusApp.command(), DyingHost.INITIALIZE, dir, Duration.ofSeconds(30));
        assertTrue(o.helperHeld(), "the helper still held the server's stdin open");
        assertTrue(o.keptThePromise(), "ended " + o.outlived() + " after its host\n" + o.stderr());
        assertTrue(o.stdout().startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"), "answered before:\n" + o.stdout());
    }

    @Test
    @EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the host is a POSIX shell with a fifo")
    void throughAWrapperThatWaitsForItTheApplicationStillEndsWithItsHost() throws Exception {
        DyingHost.Outcome o = DyingHost.run(QuarkusApp.command(), DyingHost.Launch.THROUGH_A_WRAPPER, DyingHost.INITIALIZE, dir,
                Duration.ofSeconds(30));
        assertTrue(o.helperHeld() && o.wrapperLived(), "the helper held stdin, and the wrapper lived, when the host died");
        assertTrue(o.keptThePromise(), "ended " + o.outlived() + " after its host\n" + o.stderr());
    }
}
