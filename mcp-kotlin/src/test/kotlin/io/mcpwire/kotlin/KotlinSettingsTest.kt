package io.mcpwire.kotlin

import io.mcpwire.platform.test.FakeProcess
import io.mcpwire.stdio.Children
import io.mcpwire.stdio.HostWatch
import io.mcpwire.stdio.Isolation
import io.mcpwire.stdio.McpwireSettings
import io.mcpwire.stdio.StderrPolicy
import io.mcpwire.stdio.StrayOutput
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.parallel.ResourceLock
import org.junit.jupiter.api.parallel.Resources
import java.time.Duration
import java.util.Optional

/** `McpwireStdio.transport()` honours every `mcpwire.*` system property, and its options win over them. */
@ResourceLock(Resources.SYSTEM_PROPERTIES)
class KotlinSettingsTest {
    private val properties = mapOf(
        "mcpwire.platform" to "fake", "mcpwire.isolation" to "required", "mcpwire.stray-output" to "null",
        "mcpwire.stderr" to "direct", "mcpwire.host-watch" to "off", "mcpwire.children" to "leave",
        "mcpwire.children-grace" to "750ms",
    )

    @Test
    fun everySystemPropertyTakesEffectAndTheOptionsWin() {
        properties.forEach { (k, v) -> System.setProperty(k, v) }
        try {
            val fake = FakeProcess.withPipes()
            FakeProcess.setShared(fake)
            val transport = McpwireStdio.transport() as McpwireStdioTransport
            assertEquals(
                McpwireSettings(Optional.of("fake"), Isolation.REQUIRED, StrayOutput.nullDevice(), StderrPolicy.DIRECT, HostWatch.OFF,
                    Children.LEAVE, Duration.ofMillis(750)),
                transport.settings,
            )
            assertEquals("null device (write)", fake.describe(1), "mcpwire.stray-output=null diverted fd 1 there")
            transport.stdioForTests().close()
            FakeProcess.setShared(FakeProcess.withPipes())
            val explicit = McpwireStdio.transport { hostWatch(HostWatch.PARENT).children(Children.END).childrenGrace(Duration.ZERO) }
                as McpwireStdioTransport
            assertEquals(HostWatch.PARENT, explicit.settings.hostWatch(), "the option wins")
            assertEquals(Children.END, explicit.settings.children(), "the option wins")
            assertEquals(Duration.ZERO, explicit.settings.childrenGrace(), "the option wins")
            explicit.stdioForTests().close()
        } finally {
            properties.keys.forEach { System.clearProperty(it) }
        }
    }
}
