package io.mcpwire.examples;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.transport.McpTransport;
import io.mcpwire.transport.TransportClosed;
import io.mcpwire.transport.TransportListener;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small MCP server: {@code initialize}, {@code ping}, {@code tools/list} and {@code tools/call}
 * over any transport; -32601 for other methods; notifications are never answered. Requests are
 * handled on the transport's reader thread, in the order they arrive.
 */
public final class Dispatcher implements TransportListener {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final McpTransport transport;
    private final String name;
    private final String version;
    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile TransportClosed closing;

    /** A server called {@code name} offering {@code tools} over {@code transport}. */
    public Dispatcher(McpTransport transport, String name, String version, List<Tool> tools) {
        this.transport = transport;
        this.name = name;
        this.version = version;
        tools.forEach(t -> this.tools.put(t.name(), t));
    }

    /** Starts serving. */
    public Dispatcher start() {
        transport.start(this);
        return this;
    }

    /** Waits until the transport closes, and says why. */
    public TransportClosed awaitClosed() throws InterruptedException {
        closed.await();
        return closing;
    }

    @Override
    public void onMessage(JsonRpcMessage message) {
        if (!(message instanceof JsonRpcRequest)) {
            return; // notifications (initialized, cancelled) need no answer; responses are not expected
        }
        JsonRpcRequest request = (JsonRpcRequest) message;
        JsonRpcResponse response;
        try {
            response = new JsonRpcResult(request.id(), handle(request));
        } catch (RequestException e) {
            response = JsonRpcError.of(request.id(), e.code, e.getMessage());
        }
        try {
            transport.send(response);
        } catch (IOException e) {
            // Looked up here, not when the class loads: the first lookup starts the logging back end.
            System.getLogger("io.mcpwire.examples").log(Level.WARNING, "could not answer request {0}: {1}",
                    request.id(), e.getMessage());
        }
    }

    private JsonNode handle(JsonRpcRequest request) throws RequestException {
        JsonNode params = request.params() != null ? request.params() : JSON.objectNode();
        switch (request.method()) {
            case McpProtocol.INITIALIZE:
                return initialize(params);
            case McpProtocol.PING:
                return JSON.objectNode();
            case McpProtocol.TOOLS_LIST:
                return listTools();
            case McpProtocol.TOOLS_CALL:
                return callTool(params);
            default:
                throw new RequestException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + JsonRpcError.quote(request.method()));
        }
    }

    private JsonNode initialize(JsonNode params) {
        JsonNode requested = params.get("protocolVersion");
        ObjectNode result = JSON.objectNode();
        result.put("protocolVersion", McpProtocol.negotiate(requested != null && requested.isString() ? requested.stringValue() : ""));
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        result.putObject("serverInfo").put("name", name).put("version", version);
        return result;
    }

    private JsonNode listTools() {
        ObjectNode result = JSON.objectNode();
        ArrayNode list = result.putArray("tools");
        for (Tool t : tools.values()) {
            list.addObject().put("name", t.name()).put("description", t.description()).set("inputSchema", t.inputSchema());
        }
        return result;
    }

    private JsonNode callTool(JsonNode params) throws RequestException {
        JsonNode toolName = params.get("name");
        Tool tool = toolName != null && toolName.isString() ? tools.get(toolName.stringValue()) : null;
        if (tool == null) {
            throw new RequestException(ErrorCodes.INVALID_PARAMS, "Unknown tool: " + JsonRpcError.quote(String.valueOf(toolName)));
        }
        JsonNode arguments = params.get("arguments");
        ObjectNode result = JSON.objectNode();
        ArrayNode content = result.putArray("content");
        try {
            String text = tool.call(arguments != null && arguments.isObject() ? arguments : JSON.objectNode());
            content.addObject().put("type", "text").put("text", text);
            result.put("isError", false);
        } catch (IllegalArgumentException e) {
            throw new RequestException(ErrorCodes.INVALID_PARAMS, "Invalid arguments for " + tool.name() + ": " + e.getMessage());
        } catch (Exception e) {
            content.addObject().put("type", "text").put("text", tool.name() + " failed: " + e);
            result.put("isError", true);
        }
        return result;
    }

    @Override
    public void onClosed(TransportClosed closed) {
        this.closing = closed;
        this.closed.countDown();
    }

    /** A request that is answered with a JSON-RPC error. */
    private static final class RequestException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int code;

        RequestException(int code, String message) {
            super(message);
            this.code = code;
        }
    }
}
