package io.mcpwire.benchmarks.harness;

import java.nio.charset.StandardCharsets;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * The text of an {@code echo} call: as it decodes ({@code text}, what the answer must hold) and as
 * it goes on the wire between the request's quotes ({@code wire}: JSON's escapes, UTF-8 as is).
 */
record Payload(String text, String wire) {

    /**
     * 1,024 ASCII {@code a}s: no escape and no multi-byte character, the fastest path of every
     * parser and writer.
     */
    static final Payload PLAIN = of("a".repeat(1024));

    /**
     * Some 1 KiB of what tools carry: a JSON text inside the string (its quotes and backslashes
     * escaped), newlines and tabs, a terminal's colour codes (U+001B, a control character, which
     * JSON sends as a six-character escape), and 2-, 3- and 4-byte UTF-8 (é, 漢, 😀), sent as they are.
     */
    static final Payload MIXED = of(mixedText());

    /** {@code text} with the escapes JSON requires, and no others (what Jackson and most writers produce). */
    static Payload of(String text) {
        return new Payload(text, new String(JsonStringEncoder.getInstance().quoteAsCharArray(text)));
    }

    /** The request's bytes of the wire form. */
    byte[] wireBytes() {
        return wire.getBytes(StandardCharsets.UTF_8);
    }

    private static String mixedText() {
        String piece = String.join("\n",
                "{\"tool\":\"search\",\"arguments\":{\"query\":\"café \\\"crème\\\"\",\"path\":\"C:\\\\src\\\\漢字\",\"limit\":10}}",
                "\tRésumé: naïve façade, Grüße, Ωμέγα, Привет",
                "\t漢字かな交じり文, €100 — “quoted”",
                "\t😀 🚀 𝄞 done",
                "\u001b[31merror\u001b[0m: line 1\r",
                "");
        StringBuilder text = new StringBuilder();
        while (of(text.toString()).wireBytes().length < 1024) {
            text.append(piece); // whole pieces, to some 1 KiB in the request like the plain text
        }
        return text.toString();
    }
}
