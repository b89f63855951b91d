package io.mcpwire.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The hand-written UTF-8 validator against the JDK's strict decoder: on any bytes, at any offset
 * into a larger array, both find the same first invalid sequence, or none.
 */
class Utf8FuzzTest {

    @FuzzTest
    void findsTheSameFirstInvalidByteAsTheJdksStrictDecoder(byte[] input) {
        int expected = firstMalformed(input);
        assertEquals(expected, Utf8.firstInvalid(input, 0, input.length), () -> hex(input));
        // The eight-byte ASCII scan reads whole words: an offset and slack on either side must not change the answer.
        byte[] padded = new byte[input.length + 11];
        java.util.Arrays.fill(padded, (byte) 0xFF);
        System.arraycopy(input, 0, padded, 3, input.length);
        assertEquals(expected, Utf8.firstInvalid(padded, 3, input.length), () -> "at offset 3: " + hex(input));
    }

    /** The offset of the first malformed sequence the JDK reports, or -1 when it decodes all. */
    private static int firstMalformed(byte[] input) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(input);
        CharBuffer out = CharBuffer.allocate(input.length + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        return result.isError() ? in.position() : -1;
    }

    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b & 0xFF));
        }
        return s.toString();
    }
}
