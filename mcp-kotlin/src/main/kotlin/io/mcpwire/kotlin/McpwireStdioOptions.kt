package io.mcpwire.kotlin

import io.mcpwire.stdio.Isolation
import io.mcpwire.stdio.StderrPolicy
import io.mcpwire.stdio.StrayOutput
import kotlinx.coroutines.CoroutineDispatcher
import java.time.Duration

/**
 * What [McpwireStdio.transport] claims and serves with; each left unset keeps the default of
 * `StdioClaim.Builder` and `StdioTransport.Builder` (their system properties included). Fluent,
 * for Java as for Kotlin.
 */
public class McpwireStdioOptions {
    internal var strayOutput: StrayOutput? = null
    internal var stderr: StderrPolicy? = null
    internal var isolation: Isolation? = null
    internal var gracePeriod: Duration? = null
    internal var hostWatch: Boolean? = null
    internal var maxMessageBytes: Int? = null
    internal var handlerDispatcher: CoroutineDispatcher? = null

    /** Where stray output goes while claimed (default: `-Dmcpwire.stray`, else stderr). */
    public fun strayOutput(stray: StrayOutput): McpwireStdioOptions = apply { strayOutput = stray }

    /** Whether the process's own stderr goes through the stray-output drain (default: guarded). */
    public fun stderr(policy: StderrPolicy): McpwireStdioOptions = apply { stderr = policy }

    /** Whether a claim that cannot isolate may serve in place (default: preferred). */
    public fun isolation(isolation: Isolation): McpwireStdioOptions = apply { this.isolation = isolation }

    /**
     * How long end of input waits, without progress, for the answers still owed, and the close
     * for what is queued (default 5 s).
     */
    public fun gracePeriod(grace: Duration): McpwireStdioOptions = apply {
        require(!grace.isNegative) { "a negative grace period: $grace" }
        gracePeriod = grace
    }

    /**
     * Whether the session ends when the process that started this one exits, stdin open or not
     * (default true; `-Dmcpwire.stdio.host-watch=false` turns it off).
     */
    public fun hostWatch(watch: Boolean): McpwireStdioOptions = apply { hostWatch = watch }

    /** The largest message, in bytes of UTF-8, either way (default 16 MiB). */
    public fun maxMessageBytes(bytes: Int): McpwireStdioOptions = apply {
        require(bytes >= 1) { "bytes < 1: $bytes" }
        maxMessageBytes = bytes
    }

    /**
     * Where the SDK's message handler runs (default: the thread mcpwire delivers on, which waits
     * for the handler until its first suspension, so that messages are handled in order, as the
     * SDK's own transport does on its processor coroutine).
     */
    public fun handlerDispatcher(dispatcher: CoroutineDispatcher): McpwireStdioOptions = apply { handlerDispatcher = dispatcher }
}
