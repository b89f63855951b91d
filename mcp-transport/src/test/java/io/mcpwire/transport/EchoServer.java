package io.mcpwire.transport;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.McpTransport;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.node.JsonNodeFactory;

/** A test server: answers {@code ping} and echoes {@code echo}'s params; {@code silent} is never answered. */
final class EchoServer implements TransportListener {
    final McpTransport transport;
    final List<JsonRpcMessage> received = new CopyOnWriteArrayList<>();
    final List<DecodeError> decodeErrors = new CopyOnWriteArrayList<>();
    final List<TransportClosed> closed = new CopyOnWriteArrayList<>();
    private final CountDownLatch closedLatch = new CountDownLatch(1);

    EchoServer(McpTransport transport) {
        this.transport = transport;
    }

    EchoServer start() {
        transport.start(this);
        return this;
    }

    @Override
    public void onMessage(JsonRpcMessage message) {
        received.add(message);
        if (!(message instanceof JsonRpcRequest)) {
            return;
        }
        JsonRpcRequest r = (JsonRpcRequest) message;
        try {
            switch (r.method()) {
                case "ping":
                    transport.send(new JsonRpcResult(r.id(), JsonNodeFactory.instance.objectNode()));
                    break;
                case "echo":
                    transport.send(new JsonRpcResult(r.id(), r.params()));
                    break;
                case "silent":
                    break;
                default:
                    transport.send(JsonRpcError.of(r.id(), -32601, "Method not found"));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void onDecodeError(DecodeError error) {
        decodeErrors.add(error);
    }

    @Override
    public void onClosed(TransportClosed c) {
        closed.add(c);
        closedLatch.countDown();
    }

    TransportClosed awaitClosed() throws InterruptedException {
        if (!closedLatch.await(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the transport did not close");
        }
        return closed.get(0);
    }
}
