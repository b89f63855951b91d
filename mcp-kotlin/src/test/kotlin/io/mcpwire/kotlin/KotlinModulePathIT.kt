package io.mcpwire.kotlin

import io.mcpwire.kotlin.servers.NoisyKotlinServer
import io.mcpwire.platform.test.harness.ChildJvm
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File
import java.nio.file.Path
import java.time.Duration

/**
 * The packaged mcpwire-kotlin jar, mcpwire and the Kotlin SDK on the module path (the SDK's jars as
 * automatic modules, and mcpwire-kotlin as the automatic module its manifest names), the server on
 * the class path: it answers, and the wire is clean. The class path run is every other test here.
 */
class KotlinModulePathIT {
    @Test
    fun aServerOnTheClassPathServesWithTheLibrariesOnTheModulePath() {
        val jar = File("target").listFiles { f -> f.name.matches(Regex("mcpwire-kotlin-.*\\.jar")) && !f.name.endsWith("-sources.jar") && !f.name.endsWith("-javadoc.jar") }!!
            .single().absolutePath
        val modules = ChildJvm.pathEntries().filter {
            !it.contains("mcpwire-test-") && !it.contains("mcpwire-check-") && !it.endsWith("classes")
        } + jar
        val command = listOf(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED",
            "-p", modules.joinToString(File.pathSeparator), "--add-modules", "io.mcpwire.kotlin,ALL-MODULE-PATH", // named: the manifest's automatic name
            "-cp", Path.of("target", "test-classes").toAbsolutePath().toString(),
            NoisyKotlinServer::class.java.name, "--no-child")
        val input = """{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}""" +
            "\n" + """{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"noisy","arguments":{}}}""" + "\n"
        val r = ChildJvm.run(command, input, false, Duration.ofSeconds(30))
        assertEquals(0, r.exitCode(), r.stderr())
        val lines = r.stdout().lines().filter { it.isNotEmpty() }
        assertEquals(2, lines.size, r.stdout())
        assertTrue(lines.all { it.startsWith("{") && it.contains("\"jsonrpc\":\"2.0\"") }, r.stdout())
        assertTrue(lines[1].contains("child exit 0"), r.stdout())
        assertTrue(r.stderr().contains("noisy: println under the Kotlin SDK"), r.stderr())
    }
}
