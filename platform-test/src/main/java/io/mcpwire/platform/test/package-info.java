/**
 * A scriptable fake descriptor table: {@link io.mcpwire.platform.test.FakeProcess} models one
 * process's descriptors, pipes, null device and stderr in memory, with scripted failures, a call
 * log, snapshots and a wire-reachability check, for testing servers under descriptor faults.
 */
package io.mcpwire.platform.test;
