package io.mcpwire.stdio.engine;

import io.mcpwire.stdio.StderrPolicy;
import io.mcpwire.stdio.StrayOutput;

/**
 * What a claim was asked to take, as its builder gathered it.
 *
 * @param input             whether to claim stdin
 * @param output            whether to claim stdout (and fd 2 with it when it is the wire)
 * @param stray             where stray output goes while claimed
 * @param stderr            whether fd 2 goes through the stray-output drain too
 * @param wakeTimeoutMillis how long the release waits for a woken call to leave
 * @param children          the processes the server started, ended first at the release
 */
public record ClaimRequest(boolean input, boolean output, StrayOutput stray, StderrPolicy stderr, long wakeTimeoutMillis,
                           ChildProcesses children) {
}
