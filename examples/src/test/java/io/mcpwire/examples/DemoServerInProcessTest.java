package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.test.McpServerExtension;
import io.mcpwire.test.McpTestClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The demo server in the test JVM over the fake descriptor table, with mcpwire-test: after each
 * test the extension ends the session and fails it unless the wire carried nothing but JSON-RPC,
 * every request was answered once, and the claim was released.
 */
class DemoServerInProcessTest {

    @RegisterExtension
    final McpServerExtension server = McpServerExtension.inProcess(DemoServer::serve);

    @Test
    void listsAndCallsItsTools(McpTestClient client) {
        assertEquals("mcpwire-demo", client.initialize().path("serverInfo").path("name").asString());
        assertEquals(List.of("echo", "noisy", "payload"), client.toolNames());
        assertEquals("hello", client.callToolText("echo", "{\"text\":\"hello\"}"));
        assertEquals(64 * 1024, client.callToolText("payload", "{\"kib\":64}").length());
    }

    @Test
    void aBadArgumentIsAnInvalidParamsErrorAndTheSessionGoesOn(McpTestClient client) {
        client.initialize();
        JsonRpcResponse answer = client.request("tools/call", "{\"name\":\"payload\",\"arguments\":{\"kib\":-1}}");
        assertEquals(ErrorCodes.INVALID_PARAMS, assertInstanceOf(JsonRpcError.class, answer).error().code());
        client.ping();
    }
}
