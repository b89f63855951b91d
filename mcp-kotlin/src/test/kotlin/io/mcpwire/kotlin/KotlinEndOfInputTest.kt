package io.mcpwire.kotlin

import io.mcpwire.kotlin.servers.NoisyKotlinServer
import io.mcpwire.platform.test.harness.ChildJvm
import io.mcpwire.platform.test.harness.DetachedLauncher
import io.mcpwire.platform.test.harness.DyingHost
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.condition.EnabledOnOs
import org.junit.jupiter.api.condition.OS
import org.junit.jupiter.api.io.TempDir
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * The SDK samples' pattern (`createSession`, then `session.onClose { done.complete() }`, then
 * `done.join()`) on `McpwireStdio.transport()` ends whenever stdin closes: at once, right after the
 * first answer, or after a tool call; and within 3 s of its host's death while another process
 * still holds its stdin open.
 */
class KotlinEndOfInputTest {
    @TempDir
    lateinit var dir: Path

    @Test
    fun itEndsWhenStdinClosesAtOnce() {
        repeat(RUNS) { assertEnds(answersFirst = 0, "run $it, stdin closed at once") }
    }

    @Test
    fun itEndsWhenStdinClosesRightAfterTheFirstAnswer() {
        repeat(RUNS) { assertEnds(answersFirst = 1, "run $it, stdin closed right after the first answer") }
    }

    @Test
    fun itEndsWhenStdinClosesAfterAToolCall() {
        repeat(RUNS) { assertEnds(answersFirst = 2, "run $it, stdin closed after a tool call") }
    }

    @Test
    @EnabledOnOs(value = [OS.LINUX, OS.MAC], disabledReason = "the host is a POSIX shell with a fifo")
    fun itEndsWithItsHostThroughAWrapperOrNot() {
        for (launch in DyingHost.Launch.values()) {
            val o = DyingHost.run(SERVER, launch, DyingHost.INITIALIZE, Files.createDirectories(dir.resolve(launch.name)), Duration.ofSeconds(15))
            assertTrue(o.helperHeld() && o.wrapperLived(), "$launch: the helper still held the server's stdin open, any wrapper lived")
            assertTrue(o.keptThePromise(), "$launch: ended " + o.outlived() + " after its host\n" + o.stderr())
            assertTrue(o.stdout().contains("\"id\":1"), "$launch: answered before: " + o.stdout())
        }
    }

    @Test
    @EnabledOnOs(value = [OS.LINUX, OS.MAC], disabledReason = "the launcher is a POSIX shell with a fifo")
    fun aLauncherThatExitsAtOnceDoesNotEndTheSession() {
        val o = DetachedLauncher.run(SERVER, DyingHost.INITIALIZE, DetachedLauncher.INITIALIZED_AND_PING, Duration.ofSeconds(3), dir, Duration.ofSeconds(30))
        assertTrue(o.answeredAfterTheLauncher(), "the session went on after its launcher left\n" + o.stdout() + o.stderr())
    }

    /** Starts the server, reads [answersFirst] answers to the session's opening requests, closes stdin, and waits for the exit. */
    private fun assertEnds(answersFirst: Int, what: String) {
        val process = ProcessBuilder(SERVER).redirectError(ProcessBuilder.Redirect.DISCARD).start()
        try {
            val stdin = process.outputStream
            val stdout = process.inputStream.bufferedReader(StandardCharsets.UTF_8)
            OPENING.take(answersFirst).forEach { request ->
                stdin.write((request + "\n").toByteArray(StandardCharsets.UTF_8))
                stdin.flush()
                if (request.contains("\"id\"")) {
                    assertTrue(stdout.readLine()?.contains("\"result\"") == true, "$what: an answer")
                }
            }
            stdin.close()
            assertTrue(process.waitFor(EXIT_SECONDS, TimeUnit.SECONDS), "$what: the server did not end in $EXIT_SECONDS s")
            assertEquals(0, process.exitValue(), what)
        } finally {
            process.destroyForcibly()
        }
    }

    companion object {
        /** Runs per timing here; the closing note gives a run of a hundred. */
        private const val RUNS = 5
        private const val EXIT_SECONDS = 10L
        private val SERVER: List<String> = listOf(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-cp",
            KotlinServerWireTest.TEST_CLASS_PATH, NoisyKotlinServer::class.java.name, "--no-child")
        private val OPENING = listOf(
            """{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}""",
            """{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"noisy","arguments":{}}}""",
        )
    }
}
