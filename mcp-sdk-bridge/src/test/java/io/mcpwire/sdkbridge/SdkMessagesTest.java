package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.RequestId;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** mcpwire's decoded messages become exactly what the SDK's own reading of the text gives. */
class SdkMessagesTest {
    private static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();

    private static JsonRpcMessage decoded(String line) {
        return ((DecodeResult.Decoded) JsonRpcCodec.standard().decode(line)).message();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":"
                    + "{\"text\":\"é\\n\",\"n\":-3,\"big\":12345678901234,\"huge\":123456789012345678901234567890,"
                    + "\"f\":1.5,\"t\":true,\"z\":null,\"list\":[1,\"two\",[],{}]}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":9876543210,\"method\":\"ping\",\"params\":{}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"r-1\",\"reason\":\"x\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{\"roots\":[{\"uri\":\"file:///tmp\"}]}}",
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32601,\"message\":\"no\",\"data\":{\"why\":[1]}}}",
    })
    void eachMessageIsWhatTheSdkReadsFromItsText(String line) throws Exception {
        assertEquals(McpSchema.deserializeJsonRpcMessage(MAPPER, line), SdkMessages.toSdk(decoded(line)));
    }

    @Test
    void aResponseNamesTheRequestItAnswersAndOtherMessagesNone() {
        assertEquals(Optional.of(RequestId.of(7)), SdkMessages.answered(McpSchema.JSONRPCResponse.result(7, "x")));
        assertEquals(Optional.of(RequestId.of(9876543210L)), SdkMessages.answered(McpSchema.JSONRPCResponse.result(9876543210L, "x")));
        assertEquals(Optional.of(RequestId.of("a")), SdkMessages.answered(McpSchema.JSONRPCResponse.result("a", "x")));
        assertEquals(Optional.empty(), SdkMessages.answered(new McpSchema.JSONRPCNotification("2.0", "m", null)));
    }
}
