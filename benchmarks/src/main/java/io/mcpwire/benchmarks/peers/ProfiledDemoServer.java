package io.mcpwire.benchmarks.peers;

import io.mcpwire.examples.DemoTools;
import io.mcpwire.examples.ToolServer;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import java.nio.file.Path;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The demo server with a JFR recording, for profiling under the harness's load:
 * {@code -XX:StartFlightRecording} prints to stdout before {@code main} (onto the wire), so the
 * recording starts here, after the claim. Writes the recording to the path given as argument.
 */
public final class ProfiledDemoServer {
    private ProfiledDemoServer() {
    }

    public static void main(String[] args) throws Exception {
        StdioClaim claim = StdioClaim.acquire();
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            recording.setDestination(Path.of(args[0].replace("%p", Long.toString(ProcessHandle.current().pid()))));
            recording.start();
            StdioTransport transport = StdioTransport.builder().claim(claim).build();
            new ToolServer(transport, "mcpwire-demo", "0.1.0", DemoTools.all()).start().awaitClosed();
            recording.stop();
        }
    }
}
