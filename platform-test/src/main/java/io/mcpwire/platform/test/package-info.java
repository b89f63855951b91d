/**
 * The fake descriptor table: {@link io.mcpwire.platform.test.FakeProcess} models one process's
 * descriptors, pipes, null device and stderr in memory, with scripted failures, a call log,
 * snapshots and a wire-reachability check, for testing servers under descriptor faults. One
 * kernel, two faces: POSIX, and Windows ({@link io.mcpwire.platform.test.WindowsVariant}: the C
 * runtime's descriptors over Win32 handles, the standard-handle slots, the JVM's start-up handles),
 * whose calls a {@link io.mcpwire.platform.test.WindowsScript} records for replay on Wine. The
 * model's parts are package-private: they share the kernel's one lock and its files. Harnesses
 * that run real processes are in {@code io.mcpwire.platform.test.harness}.
 */
package io.mcpwire.platform.test;
