package io.mcpwire.examples;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.protocol.CacheHint;
import io.mcpwire.protocol.ConnectionEra;
import io.mcpwire.protocol.DiscoverResult;
import io.mcpwire.protocol.Implementation;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.ModernResult;
import io.mcpwire.protocol.ProtocolEra;
import io.mcpwire.jsonrpc.McpTransport;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small dual-era MCP server over any transport. A connection speaks the era its first request
 * names ({@link ConnectionEra}): legacy, with {@code initialize}, {@code ping}, {@code tools/list}
 * and {@code tools/call}; or modern (2026-07-28), with {@code server/discover}, {@code tools/list}
 * and {@code tools/call}, each answered in the version its own {@code _meta} names, with
 * {@code resultType} and the server's identity in the result's {@code _meta}. Other methods get
 * -32601; notifications are never answered. Requests are handled on the transport's dispatcher
 * thread, in the order they arrive.
 */
public final class ToolServer implements TransportListener {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final McpTransport transport;
    private final Implementation info;
    private final ConnectionEra era = new ConnectionEra();
    private final DiscoverResult discover;
    /** What every modern result carries besides its own members. */
    private final ModernResult modern;
    /** How long a client may cache the discover and list results: the tools never change. */
    private static final CacheHint CACHE = new CacheHint(3_600_000, CacheHint.Scope.PUBLIC);
    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile TransportClosed closing;

    /** A server called {@code name} offering {@code tools} over {@code transport}. */
    public ToolServer(McpTransport transport, String name, String version, List<Tool> tools) {
        this.transport = transport;
        this.info = new Implementation(name, version);
        this.discover = new DiscoverResult(McpProtocol.MODERN_VERSIONS, capabilities(), Optional.of(info), Optional.empty(), CACHE);
        this.modern = new ModernResult(info, CACHE);
        tools.forEach(t -> this.tools.put(t.name(), t));
    }

    /** Starts serving. */
    public ToolServer start() {
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
            ConnectionEra.Decision decision = era.admit(request);
            response = decision instanceof ConnectionEra.Decision.Refuse refuse ? refuse.error()
                    : new JsonRpcResult(request.id(), handle(request, (ConnectionEra.Decision.Serve) decision));
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

    private JsonNode handle(JsonRpcRequest request, ConnectionEra.Decision.Serve serve) throws RequestException {
        JsonNode params = request.params() != null ? request.params() : JSON.objectNode();
        if (serve.era() == ProtocolEra.MODERN) {
            return modern(request.method(), serve.version(), params);
        }
        switch (request.method()) {
            case McpProtocol.INITIALIZE:
                return initialize(serve.version());
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

    /** A modern request's members, each made complete by {@link ModernResult}, {@code server/discover}'s included. */
    private JsonNode modern(String method, String version, JsonNode params) throws RequestException {
        ObjectNode members = switch (method) {
            case McpProtocol.SERVER_DISCOVER -> discover.toJson();
            case McpProtocol.TOOLS_LIST -> listTools();
            case McpProtocol.TOOLS_CALL -> callTool(params);
            default -> // initialize, ping and the legacy methods do not exist in this era
                    throw new RequestException(ErrorCodes.METHOD_NOT_FOUND, "Method not found in protocol version "
                            + version + ": " + JsonRpcError.quote(method));
        };
        return modern.complete(method, members);
    }

    private static ObjectNode capabilities() {
        ObjectNode capabilities = JSON.objectNode();
        capabilities.putObject("tools").put("listChanged", false);
        return capabilities;
    }

    private JsonNode initialize(String agreed) {
        ObjectNode result = JSON.objectNode();
        result.put("protocolVersion", agreed);
        result.set("capabilities", capabilities());
        result.set("serverInfo", info.toJson());
        return result;
    }

    private ObjectNode listTools() {
        ObjectNode result = JSON.objectNode();
        ArrayNode list = result.putArray("tools");
        for (Tool t : tools.values()) {
            list.addObject().put("name", t.name()).put("description", t.description()).set("inputSchema", t.inputSchema());
        }
        return result;
    }

    private ObjectNode callTool(JsonNode params) throws RequestException {
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
