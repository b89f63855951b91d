/**
 * The claim of the standard streams ({@link io.mcpwire.stdio.StdioClaim}): while it is held, the
 * protocol wire is served from private descriptors, fd 0 reads the null device and fd 1 writes to
 * stderr. Any transport serves over {@link io.mcpwire.stdio.StdioClaim#wire()}; mcpwire's own is
 * {@code io.mcpwire.transport.StdioTransport}.
 *
 * <h2>Threads and locks</h2>
 *
 * <table>
 * <caption>Threads</caption>
 * <tr><th>thread</th><th>owns</th><th>blocks in</th></tr>
 * <tr><td>any caller of {@code StdioClaim.acquire} or {@code close}</td><td>the claim's moves, through
 *     the provider</td><td>a release waiting for a woken reader to leave</td></tr>
 * <tr><td>{@code mcpwire-stray-drain-read}</td><td>reading the claim's stray-output pipe into the
 *     drain's buffer (a claim whose stderr is a pipe or socket)</td><td>a pipe read; never stderr</td></tr>
 * <tr><td>{@code mcpwire-stray-drain-write}</td><td>writing the buffer to stderr, and the drop
 *     count where the gap is; it never logs</td><td>{@code take()}; a write to stderr, for as long
 *     as stderr is unread</td></tr>
 * </table>
 *
 * <table>
 * <caption>Locks, outermost first</caption>
 * <tr><th>lock</th><th>taken by</th><th>guards</th><th>runs under it</th></tr>
 * <tr><td>{@code ProviderClaim}'s or {@code InPlaceClaim}'s monitor</td><td>the releasing thread (a
 *     caller of {@code close}, or a transport's close)</td><td>the release, once</td><td>provider
 *     calls ({@code dup2}, {@code close}, {@code SetStdHandle}, the Windows rules' own monitors);
 *     {@code System.out}'s flush (only while fd 1 is off the wire); an {@code Endpoint}'s monitor; the
 *     stray-output drain's bounded waits (its lock, briefly); then the registry's</td></tr>
 * <tr><td>an {@code Endpoint}'s monitor</td><td>a reader, a writer, the releasing thread</td>
 *     <td>a served descriptor's stream and its calls in flight</td><td>the provider's {@code open}
 *     of the stream, on the first read or write; the stream's {@code wakeUp}; waits that release
 *     the monitor</td></tr>
 * <tr><td>the Windows rules' {@code StartupHandles} and {@code PendingIo} monitors</td><td>the
 *     claiming or releasing thread, or the lane thread that runs its call on fd 0 to 2; a reader or
 *     writer entering or leaving a {@code ReadFile} or {@code WriteFile}; a query of a descriptor's
 *     file</td><td>the JVM's start-up handle values; the handles that reads and writes are pending
 *     on</td><td>binding calls only</td></tr>
 * <tr><td>{@code ClaimRegistry}'s lock (innermost)</td><td>any claiming or releasing thread</td>
 *     <td>who owns each standard descriptor</td><td>the map alone: a refusal names its holder by the
 *     description the holder registered with</td></tr>
 * <tr><td>{@code StrayDrain.lock}</td><td>the drain's two threads; the releasing thread (a bounded
 *     wait)</td><td>the buffer, the drop counts, whether stderr failed</td><td>nothing foreign: the
 *     pipe and stderr are read and written outside it</td></tr>
 * </table>
 *
 * <p>No callback runs under a lock. Providers are called under the claim's monitors and must not
 * call back into the claim; a transport calls the wire's {@code wake} and {@code release} with none
 * of its own locks held.
 */
package io.mcpwire.stdio;
