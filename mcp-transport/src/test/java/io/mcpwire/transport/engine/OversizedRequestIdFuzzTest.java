package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The id an oversized line is answered with, read as its bytes stream past, against the codec:
 * never an id the codec (its lengths unbounded) would not read from the whole line, and the same
 * however the line is cut.
 */
class OversizedRequestIdFuzzTest {
    /**
     * The codec without bounds on lengths or tokens: those guard the memory of a line held whole, which
     * the scan never holds, so a long string must not cost a request its id; the depth stays the standard's.
     */
    private static final JsonRpcCodec CODEC = new JsonRpcCodec(new JsonRpcCodec.Limits(
            JsonRpcCodec.Limits.DEFAULT.maxNestingDepth(), Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));

    @DictionaryEntries({"\"jsonrpc\":\"2.0\"", "\"method\":", "\"id\":", "\"params\":", "\"result\":", "{\"id\":",
        "\\\"", "\\\\", "9223372036854775808", "1.5", "null", "true"})
    @FuzzTest
    void neverReadsAnIdTheCodecWouldNotReadFromTheWholeLine(FuzzedDataProvider data) {
        int chunk = data.consumeInt(1, 64);
        byte[] line = data.consumeRemainingAsBytes();
        Optional<RequestId> whole = scan(line, Math.max(1, line.length));
        assertEquals(whole, scan(line, chunk), "however the reads cut the line");
        DecodeResult decoded = CODEC.decode(line, 0, line.length);
        if (whole.isPresent()) {
            assertEquals(whole, codecsId(decoded), () -> "the codec's id for " + new String(line, StandardCharsets.UTF_8));
        }
    }

    /** The id the codec reads from the whole line: a request's, or the one an error recovered. */
    private static Optional<RequestId> codecsId(DecodeResult decoded) {
        if (decoded instanceof DecodeResult.Decoded d) {
            return d.message() instanceof JsonRpcRequest r ? Optional.of(r.id()) : Optional.empty();
        }
        return Optional.ofNullable(((DecodeError) decoded).id());
    }

    private static Optional<RequestId> scan(byte[] line, int chunk) {
        OversizedRequestId scanner = new OversizedRequestId();
        for (int at = 0; at < line.length; at += chunk) {
            scanner.feed(line, at, Math.min(line.length, at + chunk));
        }
        return scanner.id();
    }
}
