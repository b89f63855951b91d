package io.mcpwire.kotlin.servers

import io.mcpwire.kotlin.McpwireStdio
import io.mcpwire.platform.test.harness.LingeringChildren

import io.modelcontextprotocol.kotlin.sdk.server.Server
import io.modelcontextprotocol.kotlin.sdk.server.ServerOptions
import io.modelcontextprotocol.kotlin.sdk.server.StdioServerTransport
import io.modelcontextprotocol.kotlin.sdk.types.CallToolResult
import io.modelcontextprotocol.kotlin.sdk.types.Implementation
import io.modelcontextprotocol.kotlin.sdk.types.ServerCapabilities
import io.modelcontextprotocol.kotlin.sdk.types.TextContent
import kotlinx.coroutines.Job
import kotlinx.coroutines.runBlocking
import kotlinx.io.asSink
import kotlinx.io.asSource
import kotlinx.io.buffered

/**
 * A Kotlin SDK server written as the SDK's samples write one, with mcpwire's one line: its `noisy`
 * tool prints a line, then bytes with no newline, and (unless `--no-child`) starts an `inheritIO()`
 * child that writes to stdout; with `--spawn`, a `spawn` tool starts processes that would outlive it
 * ([LingeringChildren]). With `--sdk` it runs on the SDK's own stdio transport instead.
 * In a package of its own, so that it can run on the class path while mcpwire-kotlin is a module.
 */
object NoisyKotlinServer {
    @JvmStatic
    fun main(args: Array<String>) {
        val sdk = "--sdk" in args
        val child = "--no-child" !in args
        val transport = if (sdk) {
            StdioServerTransport(System.`in`.asSource().buffered(), System.out.asSink().buffered())
        } else {
            McpwireStdio.transport() // the one line, first in main
        }
        val server = Server(Implementation("noisy-kotlin", "1"), ServerOptions(ServerCapabilities(tools = ServerCapabilities.Tools())))
        server.addTool("noisy", "prints to stdout, and starts a child that does") {
            println("noisy: println under the Kotlin SDK")
            print("noisy: no newline")
            System.out.flush()
            val exit = if (child) ProcessBuilder("sh", "-c", "echo noisy: child stdout").inheritIO().start().waitFor() else 0
            CallToolResult(content = listOf(TextContent("child exit $exit")))
        }
        if ("--spawn" in args) {
            server.addTool(LingeringChildren.TOOL, "starts processes that would outlive the server") {
                CallToolResult(content = listOf(TextContent(LingeringChildren.start())))
            }
        }
        runBlocking {
            val session = server.createSession(transport)
            val done = Job()
            session.onClose { done.complete() }
            done.join()
        }
    }
}
