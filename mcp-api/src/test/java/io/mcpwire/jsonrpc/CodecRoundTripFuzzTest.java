package io.mcpwire.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The codec on any line: it never throws; it calls a line a parse error exactly when the line is
 * not one JSON value (a limit it meets first aside); a message it decodes encodes on one line,
 * decodes back to the same message and means what the line said; an id it recovers from a line
 * it refuses is the line's own; and the answer to a refused line always encodes.
 */
class CodecRoundTripFuzzTest {
    private static final JsonRpcCodec CODEC = JsonRpcCodec.standard();

    @DictionaryEntries({"\"jsonrpc\":\"2.0\"", "\"method\":", "\"id\":", "\"params\":", "\"result\":", "\"error\":",
        "\"code\":", "\"message\":", "\"data\":", "\"_meta\":", "e999", "\\ud800", "\\u0000", "true", "null", "9223372036854775808"})
    @FuzzTest
    void decodeEncodeDecodeKeepsTheMessageAndItsMeaning(byte[] line) {
        DecodeResult decoded = CODEC.decode(line, 0, line.length);
        Optional<JsonNode> reference = JsonReference.tree(line);
        if (decoded instanceof DecodeError error) {
            refusedAsTheReferenceSays(line, error, reference);
            answerEncodes(error);
            return;
        }
        JsonRpcMessage message = ((DecodeResult.Decoded) decoded).message();
        assertTrue(reference.isPresent(), "decoded a line that is not one JSON value");
        byte[] encoded = CODEC.encode(message);
        for (byte b : encoded) {
            assertFalse(b == '\n' || b == '\r', "a raw line break inside an encoded message");
        }
        DecodeResult again = CODEC.decode(encoded, 0, encoded.length);
        assertEquals(new DecodeResult.Decoded(message), again, "decode, encode, decode");
        assertEquals(JsonReference.meaning(reference.get()), JsonReference.meaning(JsonReference.read(encoded)),
                "the encoded message means what the line said");
    }

    private static void refusedAsTheReferenceSays(byte[] line, DecodeError error, Optional<JsonNode> reference) {
        if (JsonReference.isLimitError(error)) {
            assertEquals(ErrorCodes.INVALID_REQUEST, error.code());
            assertTrue(JsonReference.limitErrorIsOwedToALimit(line), "a limit error where no limit is exceeded");
            return;
        }
        if (error.code() == ErrorCodes.PARSE_ERROR) {
            assertTrue(reference.isEmpty(), () -> "one JSON value called a parse error: " + error.message());
            assertNull(error.id(), "a parse error carries no id");
            return;
        }
        assertEquals(ErrorCodes.INVALID_REQUEST, error.code());
        assertTrue(reference.isPresent(), () -> "a line that is not JSON called an invalid request: " + error.message());
        if (error.id() != null) {
            JsonNode id = reference.get().get("id");
            assertEquals(Optional.of(error.id()), Optional.ofNullable(id).flatMap(CodecRoundTripFuzzTest::requestId),
                    "the id recovered is the line's own");
        }
    }

    /** A JSON-RPC id as the reference reads it: a string, or an integer that fits a long. */
    private static Optional<RequestId> requestId(JsonNode id) {
        if (id.isString()) {
            return Optional.of(RequestId.of(id.stringValue()));
        }
        return id.isIntegralNumber() && id.canConvertToLong() ? Optional.of(RequestId.of(id.longValue())) : Optional.empty();
    }

    private static void answerEncodes(DecodeError error) {
        JsonRpcError answer = error.toResponse();
        byte[] encoded = CODEC.encode(answer);
        DecodeResult back = CODEC.decode(encoded, 0, encoded.length);
        JsonRpcError read = assertInstanceOf(JsonRpcError.class, assertInstanceOf(DecodeResult.Decoded.class, back).message());
        assertEquals(error.id(), read.id());
        assertEquals(error.code(), read.error().code());
    }
}
