package io.mcpwire.examples;

import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import io.mcpwire.jsonrpc.TransportClosed;
import java.lang.System.Logger.Level;

/**
 * The demo MCP server on its own stdio, as an MCP host starts it. It claims the standard streams
 * first thing, so its noisy tool's stray output goes to stderr and never reaches the client.
 */
public final class DemoServer {
    private DemoServer() {
    }

    /** Serves until the client closes its end, then exits: 0 when nothing was lost. */
    public static void main(String[] args) throws InterruptedException {
        TransportClosed closed = serve();
        boolean clean = closed.reason() != TransportClosed.Reason.FAILED && closed.dropped() == 0;
        System.exit(clean ? 0 : 1);
    }

    /**
     * Claims the standard streams and serves over them until the client closes its end; the claim
     * is released by then. What {@link #main} runs, without the exit, so a test can run it in process.
     *
     * @return how the session ended
     */
    public static TransportClosed serve() throws InterruptedException {
        StdioClaim claim = StdioClaim.acquire(); // before anything can print or read System.in
        String isolation = "stdio claimed through " + claim.platformName() + ", "
                + (claim.isIsolated() ? "isolated" : "NOT isolated (serving in place)");
        StdioTransport transport = StdioTransport.builder().claim(claim).build();
        ToolServer server = new ToolServer(transport, "mcpwire-demo", "0.1.0", DemoTools.all()).start();
        TransportClosed closed = server.awaitClosed();
        // Logged at the end: looking the logger up and the first record cost tens of milliseconds
        // of start-up. Under 2>&1 stderr is the wire again once the claim is released, so then
        // nothing is logged.
        if (!claim.stderrIsWire()) {
            System.getLogger("io.mcpwire.examples").log(Level.INFO,
                    "mcpwire demo server: {0}; closed ({1}), {2} message(s) lost", isolation, closed.reason(), closed.dropped());
        }
        return closed;
    }
}
