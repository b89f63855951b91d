package io.mcpwire.kotlin

import io.mcpwire.check.Finding
import io.mcpwire.check.Options
import io.mcpwire.kotlin.servers.NoisyKotlinServer
import io.mcpwire.platform.test.harness.ChildJvm
import io.mcpwire.test.McpServerExtension
import io.mcpwire.test.McpTestClient
import java.io.File
import java.nio.file.Path
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Nested
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.condition.EnabledOnOs
import org.junit.jupiter.api.condition.OS
import org.junit.jupiter.api.extension.RegisterExtension

/**
 * A Kotlin SDK server as a child process, under mcpwire-test's checks: on the SDK's own stdio
 * transport its tool's print and its child corrupt the wire; on `McpwireStdio.transport()` the
 * wire is clean and the stray output is on stderr.
 */
@EnabledOnOs(value = [OS.LINUX, OS.MAC], disabledReason = "the tool's child is a POSIX shell")
class KotlinServerWireTest {

    @Nested
    inner class OnTheSdksOwnTransport {
        @JvmField
        @RegisterExtension
        val server: McpServerExtension = child("--sdk")

        @Test
        fun thePrintIsCaught(client: McpTestClient) {
            val report = client.check(NOISY)
            assertFalse(report.clean(), report.text())
            assertTrue(report.findings().any { it.kind() == Finding.Kind.STRAY_OUTPUT }, report.text())
        }
    }

    @Nested
    inner class OnMcpwire {
        @JvmField
        @RegisterExtension
        val server: McpServerExtension = child()

        @Test
        fun theWireIsCleanAndTheStrayOutputIsOnStderr(client: McpTestClient) {
            val report = client.check(NOISY)
            assertTrue(report.clean(), report.text())
            assertTrue(client.stderr().contains("noisy: println under the Kotlin SDK"), client.stderr())
            assertTrue(client.stderr().contains("noisy: child stdout"), client.stderr())
        }

        @Test
        fun eachToolAnswers(client: McpTestClient) {
            client.initialize()
            assertEquals(listOf("noisy"), client.toolNames())
            assertEquals("child exit 0", client.callToolText("noisy", "{}"))
        }
    }

    companion object {
        private val NOISY = Options.ToolCall("noisy", "{}")

        fun child(vararg args: String): McpServerExtension =
            McpServerExtension.command(listOf(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-cp", TEST_CLASS_PATH,
                NoisyKotlinServer::class.java.name) + args)

        /** The test JVM's path, with this module's test classes, where the server is. */
        val TEST_CLASS_PATH: String = ChildJvm.path() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath()
    }
}
