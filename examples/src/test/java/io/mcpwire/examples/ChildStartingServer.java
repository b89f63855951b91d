package io.mcpwire.examples;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import io.mcpwire.platform.test.harness.LingeringChildren;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The demo's server and transport with two other tools: one that starts processes that would
 * outlive the server ({@link LingeringChildren}), and a slow one. Tool calls run on threads of
 * their own, as a server that handles calls concurrently does, so that several are in flight at
 * once. Run by {@link ChildrenEndTest} as a child JVM. With {@code --kept-claim} the claim is one its
 * owner keeps and never puts back, as a framework whose release comes after a callback does when the
 * JVM halts first.
 */
public final class ChildStartingServer {
    private ChildStartingServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        StdioClaim claim = StdioClaim.acquire();
        StdioTransport transport = List.of(args).contains("--kept-claim")
                ? StdioTransport.builder().keptClaim(claim).build()
                : StdioTransport.builder().claim(claim).build();
        ToolServer server = new ToolServer(transport, "child-starting", "1", List.of(
                new Fixed(LingeringChildren.TOOL, LingeringChildren::start), new Fixed(LingeringChildren.SLOW_TOOL, LingeringChildren::slow)));
        ExecutorService calls = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "tool-call");
            t.setDaemon(true);
            return t;
        });
        transport.start(new TransportListener() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                if (message instanceof JsonRpcRequest r && r.method().equals(McpProtocol.TOOLS_CALL)) {
                    calls.execute(() -> server.onMessage(message));
                } else {
                    server.onMessage(message);
                }
            }

            @Override
            public void onClosed(TransportClosed closed) {
                server.onClosed(closed);
            }
        });
        TransportClosed closed = server.awaitClosed();
        System.exit(closed.reason() == TransportClosed.Reason.FAILED ? 1 : 0);
    }

    /** What a tool without arguments does. */
    private interface Body {
        String run() throws Exception;
    }

    /** A tool without arguments. */
    private record Fixed(String name, Body body) implements Tool {
        @Override
        public String description() {
            return name;
        }

        @Override
        public ObjectNode inputSchema() {
            ObjectNode s = JsonNodeFactory.instance.objectNode().put("type", "object");
            s.putObject("properties");
            return s;
        }

        @Override
        public String call(JsonNode arguments) throws Exception {
            return body.run();
        }
    }
}
