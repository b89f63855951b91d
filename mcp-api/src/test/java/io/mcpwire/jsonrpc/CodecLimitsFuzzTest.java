package io.mcpwire.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.HashMap;
import java.util.Map;

/**
 * Every limit of the codec is an error, never a crash or an unbounded allocation: under small
 * limits, a line that exceeds one where the parser must look is refused as exceeding a limit; a
 * limit error is only ever given where a limit is exceeded; otherwise the answer is the standard
 * codec's; and one decode allocates at most in proportion to the line.
 */
class CodecLimitsFuzzTest {
    /**
     * What one decode may allocate besides what grows with the line. Generous: under the fuzzer every
     * string comparison is hooked, and the hooks allocate too (a warm decode alone takes a few KiB).
     */
    private static final long FIXED_ALLOWANCE = 4 * 1024 * 1024;
    /**
     * What one byte of a line may cost at most, the fuzzer's hooks included: linear, so that a
     * quadratic or unbounded allocation on a line of a few KiB exceeds it many times over.
     */
    private static final long PER_BYTE_ALLOWANCE = 2048;

    private static final Map<JsonRpcCodec.Limits, JsonRpcCodec> CODECS = new HashMap<>();

    @DictionaryEntries({"\"jsonrpc\":\"2.0\"", "\"method\":", "\"id\":", "\"params\":", "\"result\":", "\"error\":",
        "\"code\":", "\"message\":", "\"data\":", "\"_meta\":", "e999", "\\ud800", "\\u0000", "true", "null", "9223372036854775808"})
    @FuzzTest
    void everyLimitIsAnErrorAndAllocationStaysBounded(FuzzedDataProvider data) {
        JsonRpcCodec.Limits limits = new JsonRpcCodec.Limits(
                data.consumeInt(1, 8), 1 << data.consumeInt(0, 6), 1 << data.consumeInt(0, 4), 1 << data.consumeInt(0, 4));
        byte[] line = data.consumeRemainingAsBytes();
        JsonRpcCodec small = CODECS.computeIfAbsent(limits, JsonRpcCodec::new);
        small.decode(line, 0, line.length); // once unmeasured: buffers a parser keeps per thread are not the line's cost

        long before = AllocatedBytes.now();
        DecodeResult result = small.decode(line, 0, line.length);
        long allocated = AllocatedBytes.now() - before;
        assertTrue(allocated <= FIXED_ALLOWANCE + PER_BYTE_ALLOWANCE * line.length,
                () -> allocated + " bytes allocated to decode " + line.length);

        if (JsonReference.isLimitError(result)) {
            assertEquals(ErrorCodes.INVALID_REQUEST, ((DecodeError) result).code());
            assertTrue(JsonReference.limitErrorIsOwedToALimit(line), () -> "a limit error under " + limits + " where none is exceeded");
            return;
        }
        JsonReference.Extent extent = JsonReference.measure(line);
        assertTrue(!extent.mustExceed(limits) || !validUtf8(line),
                () -> "exceeds " + limits + " (" + extent + ") and was answered " + result);
        assertEquals(JsonRpcCodec.standard().decode(line, 0, line.length), result, "within the limits: the standard codec's answer");
    }

    private static boolean validUtf8(byte[] line) {
        return Utf8.firstInvalid(line, 0, line.length) < 0;
    }
}
