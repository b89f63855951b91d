package io.mcpwire.kotlin

import io.mcpwire.stdio.Children
import io.mcpwire.stdio.HostWatch
import io.mcpwire.stdio.Isolation
import io.mcpwire.stdio.McpwireSettings
import io.mcpwire.stdio.StderrPolicy
import io.mcpwire.stdio.StrayOutput
import kotlinx.coroutines.CoroutineDispatcher
import java.time.Duration

/**
 * What [McpwireStdio.transport] claims and serves with; each setting left unset keeps what its
 * system property says, else the default (see `McpwireSettings`: `-Dmcpwire.stray-output`,
 * `-Dmcpwire.stderr`, `-Dmcpwire.isolation`, `-Dmcpwire.platform`, `-Dmcpwire.host-watch`,
 * `-Dmcpwire.children`, `-Dmcpwire.children-grace`). Fluent,
 * for Java as for Kotlin.
 */
public class McpwireStdioOptions {
    internal var platform: String? = null
    internal var strayOutput: StrayOutput? = null
    internal var stderr: StderrPolicy? = null
    internal var isolation: Isolation? = null
    internal var gracePeriod: Duration? = null
    internal var hostWatch: HostWatch? = null
    internal var children: Children? = null
    internal var childrenGrace: Duration? = null
    internal var maxMessageBytes: Int? = null
    internal var handlerDispatcher: CoroutineDispatcher? = null

    /** The platform provider, by name (default: `-Dmcpwire.platform`, else the best that can run; `none` turns isolation off). */
    public fun platform(name: String): McpwireStdioOptions = apply { platform = name }

    /** Where stray output goes while claimed (default: `-Dmcpwire.stray-output`, else stderr). */
    public fun strayOutput(stray: StrayOutput): McpwireStdioOptions = apply { strayOutput = stray }

    /** Whether the process's own stderr goes through the stray-output drain (default: `-Dmcpwire.stderr`, else guarded). */
    public fun stderr(policy: StderrPolicy): McpwireStdioOptions = apply { stderr = policy }

    /** Whether a claim that cannot isolate may serve in place (default: `-Dmcpwire.isolation`, else preferred). */
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
     * Which processes the session ends with, stdin open or not (default: `-Dmcpwire.host-watch`,
     * else `ANCESTORS`: the host, seen through the wrappers that start this process and wait for it).
     */
    public fun hostWatch(watch: HostWatch): McpwireStdioOptions = apply { hostWatch = watch }

    /**
     * Whether the processes the server started, and their descendants, end when it stops serving
     * (default: `-Dmcpwire.children`, else `END`).
     */
    public fun children(children: Children): McpwireStdioOptions = apply { this.children = children }

    /**
     * How long the server's processes are given to end before they are ended forcibly, from 0 to
     * 2 s (default: `-Dmcpwire.children-grace`, else 2 s).
     */
    public fun childrenGrace(grace: Duration): McpwireStdioOptions = apply {
        require(!grace.isNegative && grace <= Children.MAX_GRACE) { "mcpwire.children-grace=$grace: expected a duration from 0 to 2s" }
        childrenGrace = grace
    }

    /** These options over [base]: each set here wins. */
    internal fun settings(base: McpwireSettings): McpwireSettings {
        var s = base
        platform?.let { s = s.withPlatform(it) }
        strayOutput?.let { s = s.withStrayOutput(it) }
        stderr?.let { s = s.withStderr(it) }
        isolation?.let { s = s.withIsolation(it) }
        hostWatch?.let { s = s.withHostWatch(it) }
        children?.let { s = s.withChildren(it) }
        childrenGrace?.let { s = s.withChildrenGrace(it) }
        return s
    }

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
