package io.mcpwire.test;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Small MCP servers for the kit's tests, each with one tool, {@code shout}, that prints a line to
 * {@code System.out} and returns its {@code text} argument in capitals.
 */
final class KitServers {
    private static final JsonRpcCodec CODEC = JsonRpcCodec.standard();
    private static final JsonMapper MAPPER = CODEC.mapper();

    private KitServers() {
    }

    /** Claims stdio through mcpwire's transport and serves until end of input. */
    static void tidy() throws Exception {
        serve(StdioTransport.create());
    }

    /** Prints a banner before it claims, as a framework's start-up does. */
    static void bannerFirst() throws Exception {
        System.out.println("=== kit server v1 ===");
        tidy();
    }

    /** Claims, but serves over the claim's streams and never releases it. */
    static void leaksTheClaim() throws Exception {
        StdioClaim claim = StdioClaim.acquire();
        serve(StdioTransport.builder().streams(claim.input(), claim.output()).build());
    }

    /** No claim: reads System.in and writes System.out itself, so the tool's print reaches the wire. */
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            JsonRpcMessage m = CODEC.decode(line) instanceof DecodeResult.Decoded d ? d.message() : null;
            JsonRpcResponse answer = m instanceof JsonRpcRequest r ? answer(r) : null;
            if (answer != null) {
                System.out.write(CODEC.encode(answer));
                System.out.write('\n');
                System.out.flush();
            }
        }
    }

    private static void serve(StdioTransport transport) throws Exception {
        CompletableFuture<TransportClosed> closed = new CompletableFuture<>();
        transport.start(new TransportListener() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                JsonRpcResponse answer = message instanceof JsonRpcRequest r ? answer(r) : null;
                if (answer != null) {
                    try {
                        transport.send(answer);
                    } catch (IOException e) {
                        // the client has gone; the transport closes
                    }
                }
            }

            @Override
            public void onClosed(TransportClosed c) {
                closed.complete(c);
            }
        });
        closed.get();
    }

    /** The answer to {@code r}; null for {@code drop}, which is never answered. */
    static JsonRpcResponse answer(JsonRpcRequest r) {
        String result = switch (r.method()) {
            case "initialize" -> "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                    + "\"serverInfo\":{\"name\":\"kit\",\"version\":\"1\"}}";
            case "tools/list" -> "{\"tools\":[{\"name\":\"shout\",\"inputSchema\":{\"type\":\"object\"}}]}";
            case "tools/call" -> {
                System.out.println("shouting");
                JsonNode params = r.params() != null ? r.params() : MAPPER.createObjectNode();
                String text = params.path("arguments").path("text").asString("");
                yield "{\"content\":[{\"type\":\"text\",\"text\":\"" + text.toUpperCase(Locale.ROOT) + "\"}]}";
            }
            case "ping" -> "{}";
            case "drop" -> null; // never answered
            default -> "";
        };
        if (result == null) {
            return null;
        }
        if (result.isEmpty()) {
            return JsonRpcError.of(r.id(), -32601, "no method " + r.method());
        }
        JsonNode tree = MAPPER.readTree(result);
        return new JsonRpcResult(r.id(), tree);
    }
}
