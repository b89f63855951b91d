package io.mcpwire.kotlin

import io.mcpwire.stdio.McpwireSettings
import io.mcpwire.stdio.StdioClaim
import io.mcpwire.transport.StdioTransport
import io.modelcontextprotocol.kotlin.sdk.shared.Transport

/**
 * The Kotlin MCP SDK's stdio transport, served over mcpwire: the one line a Kotlin server changes.
 *
 * ```kotlin
 * fun main() {
 *     val transport = McpwireStdio.transport() // first: the claim is taken here
 *     val server = Server(Implementation("my-server", "1.0"), ServerOptions(...))
 *     runBlocking {
 *         val session = server.createSession(transport)
 *         val done = Job()
 *         session.onClose { done.complete() }
 *         done.join()
 *     }
 * }
 * ```
 *
 * The call claims the standard streams at once, so it goes first in `main`, before the `Server`
 * is built: the SDK's logging library prints its banner to `System.out` when the server first
 * logs. From Java: `McpwireStdio.transport()`.
 */
public object McpwireStdio {

    /** A transport over the real standard streams, claimed now, with the default options. */
    @JvmStatic
    public fun transport(): Transport = transport(McpwireStdioOptions())

    /**
     * A transport over the real standard streams, claimed now, with these options.
     *
     * @throws io.mcpwire.stdio.ClaimRefusedException when another claim holds them
     */
    @JvmStatic
    public fun transport(options: McpwireStdioOptions): Transport {
        val settings = options.settings(McpwireSettings.fromSystemProperties())
        val claim = StdioClaim.builder().settings(settings).acquire()
        val stdio = try {
            StdioTransport.builder().apply {
                keptClaim(claim) // put back once the SDK has been told of the close, and has logged it
                settings(settings)
                options.gracePeriod?.let { gracePeriod(it) }
                options.maxMessageBytes?.let { maxMessageBytes(it) }
            }.build()
        } catch (e: RuntimeException) {
            claim.close()
            throw e
        }
        return McpwireStdioTransport(stdio, claim, options.handlerDispatcher).also { it.warmUp() }
    }

    /** A transport with the options that [configure] sets, from Kotlin: `transport { gracePeriod(...) }`. */
    public fun transport(configure: McpwireStdioOptions.() -> Unit): Transport =
        transport(McpwireStdioOptions().apply(configure))
}
