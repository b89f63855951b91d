package io.mcpwire.kotlin

import io.mcpwire.kotlin.servers.NoisyKotlinServer
import io.mcpwire.platform.test.harness.ChildJvm
import io.mcpwire.platform.test.harness.ServerEnding
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.condition.EnabledOnOs
import org.junit.jupiter.api.condition.OS
import java.time.Duration

/**
 * Nothing a Kotlin SDK server on `McpwireStdio.transport()` started outlives it: its tool's
 * `sleep 600` and a shell's background `sleep 600` end with it at end of input and on SIGTERM,
 * although the transport puts its claim back only once the SDK has been told of the close, which a
 * JVM halting on SIGTERM never gets to.
 */
@EnabledOnOs(value = [OS.LINUX, OS.MAC], disabledReason = "the tool's processes are sleep and sh")
class KotlinChildrenEndTest {
    @Test
    fun onSigtermTheProcessesItsToolStartedEndWithIt() {
        val o = ServerEnding.run(SERVER, ServerEnding.Ending.SIGTERM, WAIT)
        assertTrue(o.allEnded(), o.describe())
        assertEquals(128 + 15, o.exitCode().orElseThrow(), "the status SIGTERM gives\n" + o.describe())
    }

    @Test
    fun atEndOfInputTheProcessesItsToolStartedEndWithIt() {
        val o = ServerEnding.run(SERVER, ServerEnding.Ending.END_OF_INPUT, WAIT)
        assertTrue(o.allEnded(), o.describe())
    }

    companion object {
        private val WAIT: Duration = Duration.ofSeconds(30)
        private val SERVER: List<String> = listOf(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-cp",
            KotlinServerWireTest.TEST_CLASS_PATH, NoisyKotlinServer::class.java.name, "--no-child", "--spawn")
    }
}
