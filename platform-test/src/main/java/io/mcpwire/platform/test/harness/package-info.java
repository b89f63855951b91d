/**
 * Harnesses around real processes and threads, for tests that cannot run in the test JVM's own
 * standard streams: {@link io.mcpwire.platform.test.harness.ChildJvm} (a server in a child JVM),
 * {@link io.mcpwire.platform.test.harness.DyingHost} (a host that dies while its server's stdin
 * stays open), {@link io.mcpwire.platform.test.harness.UnreadStderrHost} (a host that never reads
 * stderr) and {@link io.mcpwire.platform.test.harness.BlockedThreads} (waiting until a thread is
 * blocked where a test needs it).
 */
package io.mcpwire.platform.test.harness;
