package io.mcpwire.examples.kotlin

import io.mcpwire.kotlin.McpwireStdio
import io.modelcontextprotocol.kotlin.sdk.server.Server
import io.modelcontextprotocol.kotlin.sdk.server.ServerOptions
import io.modelcontextprotocol.kotlin.sdk.server.StdioServerTransport
import io.modelcontextprotocol.kotlin.sdk.shared.Transport
import io.modelcontextprotocol.kotlin.sdk.types.CallToolResult
import io.modelcontextprotocol.kotlin.sdk.types.Implementation
import io.modelcontextprotocol.kotlin.sdk.types.ServerCapabilities
import io.modelcontextprotocol.kotlin.sdk.types.TextContent
import io.modelcontextprotocol.kotlin.sdk.types.ToolSchema
import kotlinx.coroutines.Job
import kotlinx.coroutines.runBlocking
import kotlinx.io.asSink
import kotlinx.io.asSource
import kotlinx.io.buffered
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.contentOrNull
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.put
import kotlinx.serialization.json.putJsonObject
import org.slf4j.LoggerFactory

/**
 * A Kotlin MCP SDK server written as the SDK's samples write one. Its tools misbehave as tools do:
 * `print` prints with `println`, `log` logs through a logger that writes to stdout, `child` starts
 * an `inheritIO()` child that writes to stdout; `echo` returns its text. On mcpwire's transport,
 * the one line below, none of that reaches the client; with `--sdk-transport` the same server runs
 * on the SDK's own stdio transport, and all of it does.
 */
fun main(args: Array<String>) {
    val transport: Transport = if ("--sdk-transport" in args) {
        StdioServerTransport(System.`in`.asSource().buffered(), System.out.asSink().buffered())
    } else {
        McpwireStdio.transport() // the one line: first in main, before anything prints
    }
    val log = LoggerFactory.getLogger("kotlin-server")
    val server = Server(Implementation("kotlin-server", "1.0"), ServerOptions(ServerCapabilities(tools = ServerCapabilities.Tools())))
    val text = ToolSchema(properties = buildJsonObject { putJsonObject("text") { put("type", "string") } }, required = listOf("text"))
    server.addTool("echo", "returns the text it is given", text) { request ->
        CallToolResult(content = listOf(TextContent(request.arguments?.get("text")?.jsonPrimitive?.contentOrNull ?: "")))
    }
    server.addTool("print", "prints a line to stdout with println") {
        println("kotlin-server: println from a tool")
        CallToolResult(content = listOf(TextContent("printed")))
    }
    server.addTool("log", "logs a line through a logger that writes to stdout") {
        log.info("kotlin-server: a log line from a tool")
        CallToolResult(content = listOf(TextContent("logged")))
    }
    server.addTool("child", "starts a child process with inheritIO() that writes to stdout") {
        val exit = ProcessBuilder(childCommand()).inheritIO().start().waitFor()
        CallToolResult(content = listOf(TextContent("the child exited $exit")))
    }
    runBlocking {
        val session = server.createSession(transport)
        val done = Job()
        session.onClose { done.complete() }
        done.join()
    }
}

private fun childCommand(): List<String> =
    if (System.getProperty("os.name").startsWith("Windows")) listOf("cmd", "/c", "echo kotlin-server: a child's stdout")
    else listOf("sh", "-c", "echo \"kotlin-server: a child's stdout\"")
