package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The id of a request too long to hold is read as it streams past: the top-level {@code "id"} of a
 * line that has a top-level {@code "method"}, wherever it stands and however the reads split it.
 */
class OversizedRequestIdTest {
    private static final JsonRpcCodec CODEC = JsonRpcCodec.standard();

    @Example
    void theIdIsFoundBeforeAndAfterAHugeParamsAndNotInsideIt() {
        String params = "{\"id\":99,\"text\":\"" + "a".repeat(100_000) + "\",\"nested\":{\"id\":\"no\"}}";
        assertEquals(Optional.of(RequestId.of(5)), scan("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":" + params + "}", 7));
        assertEquals(Optional.of(RequestId.of("late")),
                scan("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":" + params + ",\"id\" : \"late\" }", 4096));
        assertEquals(Optional.of(RequestId.of("a\"b\\c")), scan("{\"method\":\"x\",\"id\":\"a\\\"b\\\\c\",\"params\":" + params + "}", 1));
    }

    @Example
    void aNotificationAResponseOrAnythingButAnObjectHasNone() {
        assertEquals(Optional.empty(), scan("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"id\":3}}", 3));
        assertEquals(Optional.empty(), scan("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"method\":\"x\"}}", 3));
        assertEquals(Optional.empty(), scan("[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"x\"}]", 3));
        assertEquals(Optional.empty(), scan("aaaa{\"id\":3,\"method\":\"x\"}", 3));
        assertEquals(Optional.empty(), scan("{\"id\":1.5,\"method\":\"x\"}", 3));
        assertEquals(Optional.empty(), scan("{\"id\":{\"a\":1},\"method\":\"x\"}", 3));
        assertEquals(Optional.empty(), scan("{\"id\":\"" + "x".repeat(OversizedRequestId.MAX_ID_BYTES) + "\",\"method\":\"x\"}", 100));
        assertEquals(Optional.empty(), scan("{\"method\":\"x\",\"id\":7", 3)); // cut off inside the id: not read whole
    }

    /** Where the codec reads no id, none is invented: the answer must not settle a request the client did send. */
    @Example
    void noIdIsInventedFromALineTheCodecRefuses() {
        for (String line : new String[] {
            "{\"method\":\"m\",\"id\":1 2}",
            "{\"method\":\"m\",\"id\":- 5}",
            "{\"method\":\"m\",\"id\":\"a\" \"b\"}",
            "{\"method\":\"m\",\"id\":1,\"id\":2}",
            "{\"method\":\"m\",\"id\":5}trailing",
            "{\"method\":\"m\",\"id\":5} {}",
            // the id read, but the line is no JSON further on: a parse error, which carries no id
            "{\"method\":\"m\",\"id\":5,\"params\":{\"a\":[1,2}}",
            "{\"method\":\"m\",\"id\":5,\"params\":{\"a\":01}}",
            "{\"method\":\"m\",\"id\":5,\"params\":{\"a\":\"\\x\"}}",
            "{\"method\":\"m\",\"id\":5,\"params\":{\"a\":\"\u0001\"}}",
            "{\"method\":\"m\",\"id\":5,\"params\":{\"a\":tru}}",
            "{\"method\":\"m\",\"id\":5,\"params\":{\"a\":1.}}",
            "{\"method\":\"m\",\"id\":5,\"params\":{\"a\":1}",
            // a name written with escapes may be "id": no guess
            "{\"method\":\"m\",\"id\":5,\"i\\u0064\":6}"}) {
            DecodeResult decoded = CODEC.decode(line);
            Optional<RequestId> codecs = decoded instanceof DecodeError e ? Optional.ofNullable(e.id()) : Optional.empty();
            assertEquals(Optional.empty(), codecs, "the codec reads no id from " + line);
            assertEquals(Optional.empty(), scan(line, 2), line);
        }
        assertEquals(Optional.of(RequestId.of(5)), scan("{\"method\":\"m\",\"id\": 5 }  \r", 2), "white space around is fine");
        byte[] badUtf8Later = "{\"method\":\"m\",\"id\":5,\"params\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8);
        badUtf8Later[badUtf8Later.length - 3] = (byte) 0xC0; // an overlong lead byte in the string
        assertEquals(Optional.empty(), scan(badUtf8Later, 3), "invalid UTF-8 after the id");
        assertEquals(Optional.of(RequestId.of("\u00e9\ud83d\ude00")),
                scan("{\"method\":\"m\",\"params\":[1.5e-3,-0,true,null,{}],\"id\":\"\u00e9\ud83d\ude00\"}", 1), "JSON in full");
    }

    /**
     * A string, a number or a name longer than the codec's bounds (the usual reason a line is too
     * long) does not cost the request its id, wherever the id stands; nesting past the codec's depth does.
     */
    @Example
    void lengthsDoNotCostTheIdButDepthDoes() {
        JsonRpcCodec.Limits small = new JsonRpcCodec.Limits(4, 10, 5, 10);
        String longText = "\"" + "b".repeat(1000) + "\"";
        assertEquals(Optional.of(RequestId.of(9)), scan(small, "{\"method\":\"m\",\"params\":{\"t\":" + longText
                + ",\"" + "n".repeat(50) + "\":12345678901234},\"id\":9}"));
        assertEquals(Optional.of(RequestId.of(9)), scan(small, "{\"id\":9,\"method\":\"m\",\"params\":[[1]]}"));
        assertEquals(Optional.empty(), scan(small, "{\"id\":9,\"method\":\"m\",\"params\":[[[1]]]}"));
    }

    /** For any request the codec reads, the scan finds the id the codec finds. */
    @Property(tries = 300)
    void onAnyRequestTheScanAgreesWithTheCodec(@ForAll("requests") String line, @ForAll @IntRange(min = 1, max = 64) int chunk) {
        DecodeResult decoded = CODEC.decode(line);
        Optional<RequestId> expected = decoded instanceof DecodeResult.Decoded d && d.message() instanceof JsonRpcRequest r
                ? Optional.of(r.id()) : decoded instanceof DecodeError e ? Optional.ofNullable(e.id()) : Optional.empty();
        assertEquals(expected, scan(line, chunk), line);
    }

    @Provide
    Arbitrary<String> requests() {
        Arbitrary<String> id = Arbitraries.oneOf(
                Arbitraries.longs().map(String::valueOf),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12).map(OversizedRequestIdTest::quote));
        Arbitrary<String> value = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(20).map(OversizedRequestIdTest::quote),
                Arbitraries.integers().map(String::valueOf),
                Arbitraries.of("true", "null", "[1,{\"id\":2}]", "{\"id\":\"inner\",\"method\":\"m\"}", "\"}\\\"{\""));
        Arbitrary<List<String>> extras = Combinators.combine(
                Arbitraries.of("\"params\"", "\"x\"", "\"_meta\"", "\"ids\""), value)
                .as((k, v) -> k + ":" + v).list().ofMaxSize(4).uniqueElements(m -> m.substring(0, m.indexOf(':')));
        return Combinators.combine(id, extras, Arbitraries.integers().between(0, 4), Arbitraries.of(" ", "", "\t"))
                .as((i, more, at, ws) -> {
                    List<String> members = new java.util.ArrayList<>(more);
                    members.add(Math.min(at, members.size()), "\"id\"" + ws + ":" + ws + i);
                    members.add(0, "\"jsonrpc\":\"2.0\"");
                    members.add("\"method\":\"tools/call\"");
                    return "{" + ws + String.join("," + ws, members) + ws + "}";
                });
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static Optional<RequestId> scan(String line, int chunk) {
        return scan(line.getBytes(StandardCharsets.UTF_8), chunk);
    }

    private static Optional<RequestId> scan(JsonRpcCodec.Limits limits, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        OversizedRequestId scanner = new OversizedRequestId(limits);
        scanner.feed(bytes, 0, bytes.length);
        return scanner.id();
    }

    private static Optional<RequestId> scan(byte[] bytes, int chunk) {
        OversizedRequestId scanner = new OversizedRequestId();
        for (int at = 0; at < bytes.length; at += chunk) {
            scanner.feed(bytes, at, Math.min(bytes.length, at + chunk));
        }
        return scanner.id();
    }
}
