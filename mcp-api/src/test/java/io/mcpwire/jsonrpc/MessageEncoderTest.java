package io.mcpwire.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class MessageEncoderTest {
    private final JsonRpcCodec codec = JsonRpcCodec.standard();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final MessageEncoder encoder = codec.encoder(out);

    @Test
    void eachMessageReachesTheStreamWholeBeforeEncodeReturnsWithNothingBetweenMessages() {
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.putArray("content").addObject().put("type", "text").put("text", "x".repeat(20_000));
        List<JsonRpcMessage> messages = List.of(
                new JsonRpcRequest(RequestId.of(1), "ping", null),
                new JsonRpcResult(RequestId.of("a"), result),
                JsonRpcError.of(RequestId.of(2), ErrorCodes.INVALID_PARAMS, "no"),
                new JsonRpcNotification("notifications/initialized", null));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (JsonRpcMessage m : messages) {
            encoder.encode(m);
            expected.writeBytes(codec.encode(m));
            assertArrayEquals(expected.toByteArray(), out.toByteArray(), "after " + m);
        }
    }

    @Test
    void aMessageThatFailsMidwayLeavesTheNextOneWhole() {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("before", "y".repeat(10_000));
        params.set("broken", JsonNodeFactory.instance.pojoNode(new Failing()));
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> encoder.encode(new JsonRpcRequest(RequestId.of(1), "m", params)));
        assertEquals("no value", rootCause(e).getMessage());

        out.reset(); // what a failed message left is the caller's to drop
        JsonRpcMessage next = new JsonRpcRequest(RequestId.of(2), "ping", null);
        encoder.encode(next);
        assertArrayEquals(codec.encode(next), out.toByteArray());
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** A value whose serialization fails. */
    public static final class Failing {
        /** Always fails. */
        public String getValue() {
            throw new IllegalStateException("no value");
        }
    }
}
