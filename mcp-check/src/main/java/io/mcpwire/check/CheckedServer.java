package io.mcpwire.check;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A server under check: its {@link ServerWire wire}, what it wrote to stderr, and how it ends.
 * {@link #start(List)} runs one as a child process; a test kit may run one inside the JVM.
 */
public interface CheckedServer {

    /** How the server is run, for the report: its command line, or a description. */
    List<String> command();

    /** The wire to the server. */
    ServerWire wire();

    /**
     * Waits up to {@code timeout} for the server to end after end of input.
     *
     * @return its exit status, or empty when it did not end in time (it is then stopped)
     */
    OptionalInt awaitExit(Duration timeout) throws InterruptedException;

    /** What the server wrote to stderr so far. */
    String stderr();

    /**
     * The server's resident memory now, in bytes: from {@code /proc} on Linux, from {@code ps}
     * elsewhere on POSIX; empty where neither tells (Windows) or the server runs in this JVM.
     */
    default OptionalLong residentBytes() {
        return OptionalLong.empty();
    }

    /**
     * The processes the server started, and theirs, that still ran after it exited, each described
     * for a person ({@code pid 123: sleep 600}); empty while it runs, and where it cannot be told
     * (a server in this JVM).
     */
    default List<String> leftRunning() {
        return List.of();
    }

    /** Stops the server if it still runs. */
    void kill();

    /**
     * Starts {@code command} as a child process, with its stdin and stdout as the wire.
     *
     * @throws IOException when it cannot be started at all
     */
    static CheckedServer start(List<String> command) throws IOException {
        return ServerProcess.start(command);
    }
}
