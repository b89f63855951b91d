package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.FakeProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/**
 * One record of settings, read in one place, each under {@code mcpwire.NAME}: the claim honours
 * every system property, an explicit builder call wins over it, and a bad value is refused by name.
 */
@ResourceLock(Resources.SYSTEM_PROPERTIES)
class SettingsTest {
    @TempDir
    Path dir;

    /** Runs {@code body} with {@code properties} set, then puts the old values back. */
    static void withProperties(Map<String, String> properties, Runnable body) {
        Map<String, Optional<String>> old = new java.util.HashMap<>();
        properties.forEach((k, v) -> {
            old.put(k, Optional.ofNullable(System.getProperty(k)));
            System.setProperty(k, v);
        });
        try {
            body.run();
        } finally {
            old.forEach((k, v) -> v.ifPresentOrElse(value -> System.setProperty(k, value), () -> System.clearProperty(k)));
        }
    }

    @Test
    void everySystemPropertyIsReadUnderItsOneName() {
        Path file = dir.resolve("stray.log");
        withProperties(Map.of("mcpwire.platform", "fake", "mcpwire.isolation", "required", "mcpwire.stray-output", file.toString(),
                "mcpwire.stderr", "direct", "mcpwire.host-watch", "parent", "mcpwire.children", "LEAVE", "mcpwire.children-grace", "1s"), () -> assertEquals(
                new McpwireSettings(Optional.of("fake"), Isolation.REQUIRED, StrayOutput.file(file), StderrPolicy.DIRECT, HostWatch.PARENT,
                        Children.LEAVE, Duration.ofSeconds(1)),
                McpwireSettings.fromSystemProperties()));
        assertEquals(McpwireSettings.defaults(), McpwireSettings.from(name -> Optional.empty()));
    }

    @Test
    void theClaimHonoursEachSystemPropertyAndAnExplicitCallWins() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        FakeProcess.setShared(fake);
        Path file = dir.resolve("stray.log");
        withProperties(Map.of("mcpwire.platform", "fake", "mcpwire.isolation", "required", "mcpwire.stray-output", file.toString(),
                "mcpwire.stderr", "direct"), () -> {
            try (StdioClaim claim = StdioClaim.acquire()) {
                assertEquals("fake", claim.platformName(), "mcpwire.platform chose the fake");
                assertEquals(Isolation.REQUIRED, claim.settings().isolation());
                assertEquals(StderrPolicy.DIRECT, claim.settings().stderr());
                writeToStdout(fake, "stray\n");
                assertEquals("stray\n", fake.fileText(file.toString()), "mcpwire.stray-output diverted fd 1 to the file");
            }
            try (StdioClaim claim = StdioClaim.builder().platform(fake).strayOutput(StrayOutput.nullDevice()).acquire()) {
                assertEquals(StrayOutput.nullDevice(), claim.settings().strayOutput(), "the explicit call wins");
                assertEquals("null device (write)", fake.describe(1));
            }
        });
        withProperties(Map.of("mcpwire.platform", "none", "mcpwire.isolation", "required"), () ->
                assertThrows(IsolationUnavailableException.class, StdioClaim::acquire, "no provider and isolation required"));
    }

    /** What a tool's print does while claimed: a write to fd 1. */
    private static void writeToStdout(FakeProcess fake, String text) {
        try (var out = fake.open(1)) {
            byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aBadValueIsRefusedNamingTheSetting() {
        for (var bad : Map.of("mcpwire.isolation", "maybe", "mcpwire.stderr", "sometimes", "mcpwire.host-watch", "always",
                "mcpwire.children", "kill", "mcpwire.children-grace", "3s").entrySet()) {
            withProperties(Map.of(bad.getKey(), bad.getValue()), () -> {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, McpwireSettings::fromSystemProperties);
                assertTrue(e.getMessage().startsWith(bad.getKey() + "=" + bad.getValue()), e.getMessage());
            });
        }
    }
}
