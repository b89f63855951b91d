package io.mcpwire.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class JsonRpcCodecTest {

    private final JsonRpcCodec codec = JsonRpcCodec.standard();

    private JsonRpcMessage decodeOk(String line) {
        DecodeResult r = codec.decode(line);
        assertInstanceOf(DecodeResult.Decoded.class, r, () -> "expected a message from " + line + ", got " + r);
        return ((DecodeResult.Decoded) r).message();
    }

    private JsonRpcMessage roundTrip(JsonRpcMessage m) {
        byte[] line = codec.encode(m);
        for (byte b : line) {
            assertFalse(b == '\n' || b == '\r', "a raw line break inside an encoded message");
        }
        JsonRpcMessage back = decodeOk(new String(line, StandardCharsets.UTF_8));
        assertEquals(m, back);
        assertArrayEquals(line, codec.encode(back), "encoding is stable");
        return back;
    }

    private static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Test
    void requestsRoundTripWithStringAndIntegerIdsAndEitherParamsShape() {
        ObjectNode params = object().put("text", "line one\nline two\r\n\u2028 é 😀");
        roundTrip(new JsonRpcRequest(RequestId.of(7), "tools/call", params));
        roundTrip(new JsonRpcRequest(RequestId.of("abc-1"), "ping", null));
        roundTrip(new JsonRpcRequest(RequestId.of(Long.MIN_VALUE), "x", JsonNodeFactory.instance.arrayNode().add(1).add("two")));
        roundTrip(new JsonRpcRequest(RequestId.of(""), "", object()));
    }

    @Test
    void notificationsRoundTrip() {
        roundTrip(new JsonRpcNotification("notifications/initialized", null));
        roundTrip(new JsonRpcNotification("notifications/progress", object().put("progress", 0.5)));
    }

    @Test
    void resultsRoundTripIncludingNullAndScalarResults() {
        roundTrip(new JsonRpcResult(RequestId.of(1), object()));
        roundTrip(new JsonRpcResult(RequestId.of("q"), JsonNodeFactory.instance.nullNode()));
        roundTrip(new JsonRpcResult(RequestId.of(2), JsonNodeFactory.instance.stringNode("done")));
    }

    @Test
    void errorsRoundTripWithAndWithoutDataAndWithANullId() {
        roundTrip(JsonRpcError.of(RequestId.of(3), ErrorCodes.METHOD_NOT_FOUND, "Method not found"));
        roundTrip(new JsonRpcError(RequestId.of("z"), new JsonRpcError.ErrorObject(-1, "boom", object().put("why", "because"))));
        JsonRpcMessage nullId = roundTrip(JsonRpcError.of(null, ErrorCodes.PARSE_ERROR, "Parse error"));
        assertNull(((JsonRpcError) nullId).id());
    }

    @Test
    void encodingIsCompactWithMembersInAFixedOrder() {
        String line = codec.encodeToString(new JsonRpcRequest(RequestId.of(1), "ping", null));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", line);
        String err = codec.encodeToString(JsonRpcError.of(null, -32700, "Parse error"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}", err);
    }

    @Test
    void encodingOntoAStreamLeavesItOpenForTheNextMessage() throws Exception {
        boolean[] closed = {false};
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        codec.encode(new JsonRpcNotification("a", null), out);
        out.write('\n');
        codec.encode(new JsonRpcNotification("b", null), out);
        assertFalse(closed[0], "the caller's stream is not closed");
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}",
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void treesWithEveryKindOfValueRoundTripThroughTheStreamingWriterAndReader() {
        ObjectNode params = object();
        params.put("int", 7).put("long", 1L << 40).put("big", new java.math.BigInteger("123456789012345678901234567890"))
                .put("double", 2.5).put("bool", true).putNull("nothing");
        params.putArray("list").add("s").add(1).addObject().putArray("deep").add(false);
        params.set("pojo", JsonNodeFactory.instance.pojoNode(java.util.Map.of("k", "v")));
        String line = codec.encodeToString(new JsonRpcRequest(RequestId.of(1), "m", params));
        assertTrue(line.contains("\"big\":123456789012345678901234567890"), line);
        assertTrue(line.contains("\"pojo\":{\"k\":\"v\"}"), "a POJO node is written through the mapper: " + line);
        JsonNode back = ((JsonRpcRequest) decodeOk(line)).params();
        assertEquals(1L << 40, back.get("long").longValue());
        assertEquals(2.5, back.get("double").doubleValue());
        assertTrue(back.get("nothing").isNull());
        assertEquals(false, back.get("list").get(2).get("deep").get(0).booleanValue());
    }

    @Test
    void nestedAndEmptyContainersAreWrittenAsJacksonWritesThemAndReadBackEqual() {
        // Members after a closed container, containers in arrays and arrays in arrays, empty ones:
        // every way the writer's and reader's stacks of open containers are pushed and popped.
        ObjectNode params = object();
        params.putObject("a").putObject("b").put("c", 1);
        params.put("after", "x");
        params.putArray("rows").add(JsonNodeFactory.instance.arrayNode().add(1).add(JsonNodeFactory.instance.arrayNode()))
                .addObject().putObject("inner").putArray("empty");
        params.putObject("none");
        ObjectNode deep = params.putObject("deep");
        for (int i = 0; i < 120; i++) { // 180 levels, within the codec's nesting limit
            deep = i % 2 == 0 ? deep.putObject("o") : deep.putArray("a").addObject();
        }
        deep.put("bottom", true);
        params.put("last", 2.5);
        String line = codec.encodeToString(new JsonRpcResult(RequestId.of(3), params));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":" + codec.mapper().writeValueAsString(params) + "}", line);
        assertEquals(params, ((JsonRpcResult) decodeOk(line)).result());
        JsonRpcRequest request = new JsonRpcRequest(RequestId.of(4), "m", params);
        assertEquals(request, decodeOk(codec.encodeToString(request)));
    }

    @Test
    void decodingToleratesWhitespaceUnknownMembersAndAnyMemberOrder() {
        JsonRpcMessage m = decodeOk("  {\"method\":\"ping\",\"extra\":{\"a\":[1,2]},\"id\":\"x\",\"jsonrpc\":\"2.0\"}\t ");
        assertEquals(new JsonRpcRequest(RequestId.of("x"), "ping", null), m);
    }

    @Test
    void decodingReadsFromAnOffsetWithinABuffer() {
        byte[] buf = "garbage{\"jsonrpc\":\"2.0\",\"method\":\"a\"}more".getBytes(StandardCharsets.UTF_8);
        DecodeResult r = codec.decode(buf, 7, buf.length - 11);
        assertEquals(new DecodeResult.Decoded(new JsonRpcNotification("a", null)), r);
    }

    @Test
    void modelRefusesInvalidShapesAtConstruction() {
        assertThrows(NullPointerException.class, () -> new JsonRpcRequest(null, "m", null));
        assertThrows(NullPointerException.class, () -> new JsonRpcNotification(null, null));
        assertThrows(IllegalArgumentException.class,
                () -> new JsonRpcRequest(RequestId.of(1), "m", JsonNodeFactory.instance.numberNode(3)));
        assertThrows(NullPointerException.class, () -> new JsonRpcResult(null, object()));
        assertThrows(NullPointerException.class, () -> new JsonRpcResult(RequestId.of(1), null));
    }

    @Test
    void decodeErrorAnswersWithItsCodeAndRecoveredId() {
        DecodeError e = (DecodeError) codec.decode("{\"jsonrpc\":\"1.0\",\"id\":9,\"method\":\"m\"}");
        JsonRpcError response = e.toResponse();
        assertEquals(RequestId.of(9), response.id());
        assertEquals(ErrorCodes.INVALID_REQUEST, response.error().code());
        assertTrue(response.error().message().startsWith("Invalid Request"));
    }

    @Test
    void limitsAreConfigurable() {
        JsonRpcCodec small = new JsonRpcCodec(new JsonRpcCodec.Limits(4, 10, 5, 10));
        assertInstanceOf(DecodeResult.Decoded.class, small.decode("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":[[1]]}"));
        DecodeError deep = (DecodeError) small.decode("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"m\",\"params\":[[[[1]]]]}");
        assertEquals(ErrorCodes.INVALID_REQUEST, deep.code());
        assertEquals(RequestId.of(4), deep.id());
        DecodeError number = (DecodeError) small.decode("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"m\",\"params\":[1234567]}");
        assertEquals(ErrorCodes.INVALID_REQUEST, number.code());
        assertThrows(IllegalArgumentException.class, () -> new JsonRpcCodec.Limits(0, 1, 1, 1));
    }

    @Test
    void aMessageOfMoreTokensThanTheLimitIsRefusedWithItsId() {
        JsonRpcCodec few = new JsonRpcCodec(new JsonRpcCodec.Limits(256, 1000, 100, 100, 20));
        // 13 tokens: the braces, 4 names, 3 values, the params' brackets and 2 values
        assertInstanceOf(DecodeResult.Decoded.class, few.decode("{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":[1,2]}"));
        DecodeError many = (DecodeError) few.decode("{\"id\":2,\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":["
                + "[],".repeat(30) + "[]]}");
        assertEquals(ErrorCodes.INVALID_REQUEST, many.code());
        assertEquals(RequestId.of(2), many.id());
        assertTrue(many.message().contains("exceeds a decoding limit"), many.message());
        assertEquals(JsonRpcCodec.Limits.DEFAULT_MAX_TOKENS, JsonRpcCodec.Limits.DEFAULT.maxTokens());
        assertEquals(JsonRpcCodec.Limits.DEFAULT_MAX_TOKENS, new JsonRpcCodec.Limits(4, 10, 5, 10).maxTokens());
        assertThrows(IllegalArgumentException.class, () -> new JsonRpcCodec.Limits(1, 1, 1, 1, 0));
        // The bound is the wire's: the codec's mapper converts a value of any number of tokens.
        JsonNode converted = few.mapper().readTree("[" + "1,".repeat(30) + "1]");
        assertEquals(31, converted.size());
    }

    @Test
    void theDefaultTokenLimitRefusesALineOfEmptyArraysWithinTheSizeLimit() {
        // 4 MiB of "[]," is 2.8 million tokens: a tree of a few hundred MiB, were it built.
        String line = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"m\",\"params\":[" + "[],".repeat(1_400_000) + "[]]}";
        DecodeError e = assertInstanceOf(DecodeError.class, codec.decode(line));
        assertEquals(ErrorCodes.INVALID_REQUEST, e.code());
        assertEquals(RequestId.of(3), e.id());
    }

    @Test
    void aQuoteNeverCutsASurrogatePair() {
        String text = "a".repeat(JsonRpcError.QUOTE_LIMIT - 1) + "\uD83D\uDE00" + "b";
        String quoted = JsonRpcError.quote(text);
        assertTrue(quoted.startsWith("a".repeat(JsonRpcError.QUOTE_LIMIT - 1) + "..."), quoted);
        assertEquals("a".repeat(JsonRpcError.QUOTE_LIMIT) + "... (" + (JsonRpcError.QUOTE_LIMIT + 3) + " characters)",
                JsonRpcError.quote("a".repeat(JsonRpcError.QUOTE_LIMIT) + "\uD83D\uDE00b"));
    }

    // ------------------------------------------------------------ malformed input, one row each

    private static final String DEEP = "[".repeat(2000) + "]".repeat(2000);
    private static final String LONG = "x".repeat(JsonRpcCodec.Limits.DEFAULT.maxStringLength() + 1);

    static Stream<Arguments> malformed() {
        return Stream.of(
                // text that is not JSON: -32700, id never recovered
                row("not json at all", "hello", -32700, null),
                row("empty line", "", -32700, null),
                row("whitespace only", "   \t", -32700, null),
                row("lone byte order mark", "\uFEFF", -32700, null),
                row("unterminated object", "{\"jsonrpc\":\"2.0\",\"id\":1", -32700, null),
                row("trailing garbage", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} xyz", -32700, null),
                row("two objects on one line", "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}{\"jsonrpc\":\"2.0\",\"method\":\"b\"}", -32700, null),
                row("single quotes", "{'jsonrpc':'2.0','method':'m'}", -32700, null),
                row("comment", "{\"jsonrpc\":\"2.0\",/*c*/\"method\":\"m\"}", -32700, null),
                row("NaN", "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":[NaN]}", -32700, null),
                row("leading zero", "{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"m\"}", -32700, null),
                row("unquoted name", "{jsonrpc:\"2.0\",\"method\":\"m\"}", -32700, null),
                row("raw control character in string", "{\"jsonrpc\":\"2.0\",\"method\":\"a\u0001b\"}", -32700, null),
                row("trailing comma", "{\"jsonrpc\":\"2.0\",\"method\":\"m\",}", -32700, null),
                // JSON that is not a JSON-RPC message: -32600, id when readable
                row("batch", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", -32600, null),
                row("empty batch", "[]", -32600, null),
                row("scalar", "42", -32600, null),
                row("string", "\"ping\"", -32600, null),
                row("wrong jsonrpc", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", -32600, RequestId.of(1)),
                row("numeric jsonrpc", "{\"jsonrpc\":2.0,\"id\":\"a\",\"method\":\"ping\"}", -32600, RequestId.of("a")),
                row("missing jsonrpc", "{\"id\":2,\"method\":\"ping\"}", -32600, RequestId.of(2)),
                row("missing method", "{\"jsonrpc\":\"2.0\",\"id\":3,\"params\":{}}", -32600, RequestId.of(3)),
                row("non-string method", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":42}", -32600, RequestId.of(4)),
                row("null method", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":null}", -32600, RequestId.of(5)),
                row("object id", "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}", -32600, null),
                row("boolean id", "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", -32600, null),
                row("fractional id", "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", -32600, null),
                row("array id", "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}", -32600, null),
                row("integer id beyond 64 bits", "{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"ping\"}", -32600, null),
                row("null id on a request", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", -32600, null),
                row("scalar params", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"m\",\"params\":3}", -32600, RequestId.of(6)),
                row("null params", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"m\",\"params\":null}", -32600, RequestId.of(7)),
                row("request carrying a result", "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"m\",\"result\":{}}", -32600, RequestId.of(8)),
                row("both result and error", "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}", -32600, RequestId.of(9)),
                row("response without result or error", "{\"jsonrpc\":\"2.0\",\"id\":10}", -32600, RequestId.of(10)),
                row("response without id", "{\"jsonrpc\":\"2.0\",\"result\":{}}", -32600, null),
                row("result with null id", "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}", -32600, null),
                row("error without code", "{\"jsonrpc\":\"2.0\",\"id\":11,\"error\":{\"message\":\"m\"}}", -32600, RequestId.of(11)),
                row("error with a fractional code", "{\"jsonrpc\":\"2.0\",\"id\":12,\"error\":{\"code\":1.5,\"message\":\"m\"}}", -32600, RequestId.of(12)),
                row("error without message", "{\"jsonrpc\":\"2.0\",\"id\":13,\"error\":{\"code\":1}}", -32600, RequestId.of(13)),
                row("error that is a string", "{\"jsonrpc\":\"2.0\",\"id\":14,\"error\":\"bad\"}", -32600, RequestId.of(14)),
                row("duplicate method", "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"a\",\"method\":\"b\"}", -32600, RequestId.of(15)),
                row("duplicate id", "{\"jsonrpc\":\"2.0\",\"id\":16,\"id\":17,\"method\":\"a\"}", -32600, null),
                row("empty object", "{}", -32600, null),
                // hostile sizes: -32600, id when it came before the offending part
                row("2,000-deep nesting", "{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"m\",\"params\":" + DEEP + "}", -32600, RequestId.of(18)),
                row("2,000-deep bare array", DEEP, -32600, null),
                row("string past the length limit", "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"m\",\"params\":{\"t\":\"" + LONG + "\"}}", -32600, RequestId.of("s")),
                row("number past the length limit", "{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"m\",\"params\":[" + "9".repeat(1001) + "]}", -32600, RequestId.of(19)));
    }

    private static Arguments row(String name, String line, int code, RequestId id) {
        return Arguments.of(name, line.getBytes(StandardCharsets.UTF_8), code, id);
    }

    static Stream<Arguments> invalidUtf8() {
        String prefix = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"";
        return Stream.of(
                bytes("stray continuation byte", prefix, 0x80),
                bytes("overlong slash", prefix, 0xC0, 0xAF),
                bytes("encoded surrogate", prefix, 0xED, 0xA0, 0x80),
                bytes("truncated three-byte sequence", prefix, 0xE2, 0x82),
                bytes("beyond U+10FFFF", prefix, 0xF4, 0x90, 0x80, 0x80),
                bytes("invalid lead byte 0xFF", prefix, 0xFF));
    }

    private static Arguments bytes(String name, String prefix, int... tail) {
        byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] suffix = "\"}".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[p.length + tail.length + suffix.length];
        System.arraycopy(p, 0, all, 0, p.length);
        for (int i = 0; i < tail.length; i++) {
            all[p.length + i] = (byte) tail[i];
        }
        System.arraycopy(suffix, 0, all, p.length + tail.length, suffix.length);
        return Arguments.of(name, all, -32700, null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"malformed", "invalidUtf8"})
    void malformedInputIsADecodeErrorWithTheExactCodeAndRecoveredId(String name, byte[] line, int code, RequestId id) {
        DecodeResult r = codec.decode(line, 0, line.length);
        DecodeError e = assertInstanceOf(DecodeError.class, r, () -> name + " decoded as " + r);
        assertEquals(code, e.code(), () -> name + ": " + e.message());
        assertEquals(id, e.id(), () -> name + ": " + e.message());
        assertFalse(e.message().isBlank());
    }

    @Test
    void theMalformedTableHasAtLeastThirtyRows() {
        assertTrue(malformed().count() + invalidUtf8().count() >= 30);
    }

    @Test
    void validMultiByteUtf8IsAccepted() {
        JsonRpcMessage m = decodeOk("{\"jsonrpc\":\"2.0\",\"method\":\"é€😀\"}");
        assertEquals("é€😀", ((JsonRpcNotification) m).method());
        JsonNode params = ((JsonRpcRequest) decodeOk("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"k\":\"\\u00e9\"}}")).params();
        assertEquals("é", params.get("k").stringValue());
    }
}
