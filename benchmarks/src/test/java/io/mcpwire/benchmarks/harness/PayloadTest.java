package io.mcpwire.benchmarks.harness;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

class PayloadTest {
    private static final JsonFactory JSON = new JsonFactory();

    @Test
    void theMixedTextHoldsEscapesMultiByteUtf8AndJsonAndIsSome1KiB() {
        String wire = Payload.MIXED.wire();
        for (String escape : new String[] {"\\\"", "\\\\", "\\n", "\\t", "\\r", "\\u001B"}) {
            assertTrue(wire.contains(escape), "the wire form holds " + escape);
        }
        String text = Payload.MIXED.text();
        assertTrue(text.contains("é") && text.contains("漢") && text.contains("😀"), "2-, 3- and 4-byte UTF-8");
        assertTrue(wire.contains("😀"), "multi-byte characters go as they are, not escaped");
        assertTrue(text.contains("{\"tool\":\"search\",\"arguments\":{\"query\":\"café \\\"crème\\\"\""), "a JSON text inside the string");
        int bytes = Payload.MIXED.wireBytes().length;
        assertTrue(bytes >= 1024 && bytes < 1400, "some 1 KiB in the request: " + bytes);
        assertEquals(1024, Payload.PLAIN.wireBytes().length);
    }

    @Test
    void theRequestCarriesTheTextAndAnEchoOfItIsRight() throws Exception {
        Requests.EchoCall call = new Requests(Era.LEGACY, Peer.EchoText.AS_SENT).echo(Payload.MIXED);
        byte[] request = call.line(5);
        assertEquals(Payload.MIXED.text(), textArgument(request), "the request decodes to the text");

        // an answer as a server writes it: its own JSON writer, its own choice of escapes
        byte[] answer = answer(5, Payload.MIXED.text());
        assertEquals(AnswerCheck.Verdict.RIGHT, AnswerCheck.check(answer, call.expected()).verdict());
        String oneCharLost = Payload.MIXED.text().replaceFirst("😀", "\uD83D"); // a 4-byte character cut in half
        assertEquals(AnswerCheck.Verdict.WRONG, AnswerCheck.check(answer(5, oneCharLost), call.expected()).verdict());
        String unescaped = Payload.MIXED.text().replace("\\\"", "\""); // the inner JSON's escapes undone
        assertEquals(AnswerCheck.Verdict.WRONG, AnswerCheck.check(answer(5, unescaped), call.expected()).verdict());
    }

    @Test
    void springAiReturnsATextThatOpensWithJsonAsItIs() {
        // The mixed text opens with a JSON object; Spring AI's mapper reads it and ignores the rest.
        Requests.EchoCall call = new Requests(Era.LEGACY, Peer.EchoText.SPRING_AI_RESULT).echo(Payload.MIXED);
        assertEquals(AnswerCheck.Verdict.RIGHT, AnswerCheck.check(answer(2, Payload.MIXED.text()), call.expected()).verdict());
        byte[] quoted = answer(2, "\"" + Payload.MIXED.wire() + "\"");
        assertEquals(AnswerCheck.Verdict.WRONG, AnswerCheck.check(quoted, call.expected()).verdict());
    }

    @Test
    void springAiWritesAnyOtherTextOutAsAJsonString() {
        Payload plain = Payload.of("naïve \"text\"\n");
        Requests.EchoCall call = new Requests(Era.LEGACY, Peer.EchoText.SPRING_AI_RESULT).echo(plain);
        byte[] quoted = answer(2, "\"" + plain.wire() + "\"");
        assertEquals(AnswerCheck.Verdict.RIGHT, AnswerCheck.check(quoted, call.expected()).verdict());
        assertEquals(AnswerCheck.Verdict.WRONG, AnswerCheck.check(answer(2, plain.text()), call.expected()).verdict());
    }

    private static String textArgument(byte[] request) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), request)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.PROPERTY_NAME && p.currentName().equals("text")) {
                    p.nextToken();
                    return p.getString();
                }
            }
        }
        return null;
    }

    private static byte[] answer(long id, String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), bytes)) {
            g.writeStartObject();
            g.writeStringProperty("jsonrpc", "2.0");
            g.writeNumberProperty("id", id);
            g.writeName("result");
            g.writeStartObject();
            g.writeName("content");
            g.writeStartArray();
            g.writeStartObject();
            g.writeStringProperty("type", "text");
            g.writeStringProperty("text", text);
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        }
        return bytes.toByteArray();
    }
}
