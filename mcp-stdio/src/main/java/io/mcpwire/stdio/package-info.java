/**
 * The stream claim ({@link io.mcpwire.stdio.StdioClaim}) and the MCP stdio transport over it
 * ({@link io.mcpwire.stdio.StdioTransport}).
 *
 * <h2>Threads and locks</h2>
 *
 * <p>Every thread of the transport is a daemon made by {@code Daemons}, so none keeps a JVM alive
 * after its session ended; a reader blocked on streams that cannot be woken (explicit streams, or
 * the standard ones served in place) is left behind on purpose. The close is run to its end by the
 * one thread that wins {@code Lifecycle}'s move to DRAINING; a close asked again on that thread (a
 * listener's {@code onClosed} that closes) returns at once, and the transport's own threads never
 * wait for it.
 *
 * <table>
 * <caption>Threads</caption>
 * <tr><th>thread</th><th>owns</th><th>blocks in</th></tr>
 * <tr><td>{@code mcpwire-stdio-reader}</td><td>reading the wire into the inbound pipe; at its end the
 *     end-of-input rule; a failed read</td><td>a wire read; a full pipe; the grace wait</td></tr>
 * <tr><td>{@code mcpwire-stdio-dispatcher}</td><td>reading the pipe, framing, decoding,
 *     {@code onMessage}, answering undecodable lines</td><td>a pipe read; a send on a full queue</td></tr>
 * <tr><td>{@code mcpwire-stdio-writer}</td><td>writing queued frames ({@code FrameWriter})</td>
 *     <td>{@code take()}; a write</td></tr>
 * <tr><td>{@code mcpwire-stdio-host-watch}</td><td>watching the parent process; on its exit, the
 *     end-of-input rule, and so perhaps the close and {@code onClosed}</td><td>the poll; the grace wait</td></tr>
 * <tr><td>any caller of {@code send}</td><td>encoding its message; writing it itself when the queue
 *     is empty and idle</td><td>a full queue; its own direct write</td></tr>
 * <tr><td>the close's winner</td><td>the queue closed, the wire woken, the threads joined, the claim
 *     released, {@code onClosed} once</td><td>the grace waits; joins</td></tr>
 * <tr><td>{@code mcpwire-stray-drain-read}</td><td>reading the claim's stray-output pipe into the
 *     drain's buffer (a claim whose stderr is a pipe or socket)</td><td>a pipe read; never stderr</td></tr>
 * <tr><td>{@code mcpwire-stray-drain-write}</td><td>writing the buffer to stderr; the drop counts'
 *     log lines</td><td>{@code take()}; a write to stderr, for as long as stderr is unread</td></tr>
 * <tr><td>any caller of {@code StdioClaim.acquire} or {@code close}</td><td>the claim's moves, through
 *     the provider</td><td>a release waiting for a woken reader to leave</td></tr>
 * </table>
 *
 * <table>
 * <caption>Locks, outermost first</caption>
 * <tr><th>lock</th><th>taken by</th><th>guards</th><th>runs under it</th></tr>
 * <tr><td>{@code ProviderClaim}'s or {@code InPlaceClaim}'s monitor</td><td>the releasing thread (a
 *     caller of {@code close}, or the close's winner)</td><td>the release, once</td><td>provider
 *     calls ({@code dup2}, {@code close}, {@code SetStdHandle}, the Windows rules' own monitors);
 *     {@code System.out}'s flush (only while fd 1 is off the wire); an {@code Endpoint}'s monitor; the
 *     stray-output drain's bounded waits (its lock, briefly); then the registry's</td></tr>
 * <tr><td>an {@code Endpoint}'s monitor</td><td>a reader, a writer, the releasing thread</td>
 *     <td>a served descriptor's calls in flight</td><td>the provider stream's {@code wakeUp}; waits
 *     that release the monitor</td></tr>
 * <tr><td>the Windows rules' {@code StartupHandles} and {@code PendingReads} monitors</td><td>the
 *     claiming or releasing thread; a reader entering or leaving a read</td><td>the JVM's start-up
 *     handle values; the reads in flight</td><td>binding calls only</td></tr>
 * <tr><td>{@code ClaimRegistry}'s lock (innermost)</td><td>any claiming or releasing thread</td>
 *     <td>who owns each standard descriptor</td><td>the map alone: a refusal names its holder by the
 *     description the holder registered with</td></tr>
 * <tr><td>{@code StrayDrain.lock}</td><td>the drain's two threads; the releasing thread (a bounded
 *     wait)</td><td>the buffer, the drop counts, whether stderr failed</td><td>nothing foreign: the
 *     pipe and stderr are read and written, and the counts logged, outside it</td></tr>
 * <tr><td>{@code OutboundQueue.lock}</td><td>senders, the writer, the close</td><td>the queued frames
 *     and their bytes, who writes; {@code notEmpty}, {@code notFull}</td><td>nothing foreign</td></tr>
 * <tr><td>{@code InboundPipe.lock}</td><td>the reader, the dispatcher</td><td>the bytes read and not
 *     yet dispatched</td><td>nothing foreign</td></tr>
 * <tr><td>{@code PendingRequests.lock}</td><td>the dispatcher, senders, the close</td><td>the
 *     requests received and not yet answered</td><td>nothing foreign</td></tr>
 * <tr><td>{@code FrameWriter}'s monitor</td><td>the writer, a direct writer</td><td>the first write
 *     failure</td><td>nothing foreign</td></tr>
 * <tr><td>(none)</td><td>anyone</td><td>{@code Lifecycle}: compare-and-set; {@code Progress}: a
 *     clock read every 10 ms</td><td></td></tr>
 * </table>
 *
 * <p>No callback runs under a lock: the listener is called, and the end-of-input rule run, with no
 * lock of the transport's held; the drain's lock and the transport's (the last six rows) are each taken alone.
 * Providers are called under the claim's monitors and must not call back into the engine.
 */
package io.mcpwire.stdio;
