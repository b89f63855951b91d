package io.mcpwire.check;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What a check found.
 *
 * @param command        the server's command line
 * @param findings       everything wrong, in the order seen
 * @param initializeMillis time from start to the {@code initialize} answer; empty when none came
 * @param pingP50Micros  the median ping round trip; empty when no ping was answered
 * @param exitStatus     the exit status after end of input; empty when it did not exit in time
 * @param stderrBytes    how much the server wrote to stderr
 * @param stderrHead     its first lines
 */
public record Report(List<String> command, List<Finding> findings, OptionalDouble initializeMillis,
                     OptionalDouble pingP50Micros, OptionalInt exitStatus, long stderrBytes, List<String> stderrHead) {

    /** Whether the wire was clean and the server ended well. */
    public boolean clean() {
        return findings.isEmpty();
    }
}
