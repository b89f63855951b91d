package io.mcpwire.platform.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Constructing the provider and asking its name and priority loads no JNA class: selection costs nothing native. */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the POSIX provider runs on Linux and macOS")
class JnaLoadsLazilyTest {

    @Test
    void aProcessThatNeverClaimsNeverLoadsJna(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report");
        Path classLog = dir.resolve("classes.log");
        List<String> cmd = List.of(ChildJvm.java(), "-Xlog:class+load=info:file=" + classLog,
                "--enable-native-access=com.sun.jna", "-p", ChildJvm.path(),
                // The child program lives in this module's test classes.
                "--patch-module", "io.mcpwire.platform.posix=" + Path.of("target", "test-classes").toAbsolutePath(),
                "-m", "io.mcpwire.platform.posix/" + LazyProviderChild.class.getName(), report.toString());
        ChildJvm.Result r = ChildJvm.run(cmd, "", false, Duration.ofSeconds(60));
        assertEquals(0, r.exitCode(), r::describe);
        assertEquals(List.of("FOUND posix priority 100"), Files.readAllLines(report), r::describe);
        String loaded = Files.readString(classLog);
        assertTrue(loaded.contains("io.mcpwire.platform.posix.PosixDescriptors"), "the provider was loaded");
        assertFalse(loaded.contains("com.sun.jna."), "no JNA class was loaded");
    }
}
