package io.mcpwire.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.ErrorCodes;
import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What Quarkus MCP's own stdio transport gets wrong, over mcpwire: a blank line, a line that is
 * not JSON and a line over the limit each leave the session serving; text is UTF-8 whatever the
 * platform's charset, lines end in {@code \n}; what was asked before end of input is answered
 * before the exit.
 */
class QuarkusLinesIT {

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private static String text(JsonRpcMessage answer) {
        return assertInstanceOf(JsonRpcResult.class, answer).result().get("content").get(0).get("text").stringValue();
    }

    @Test
    void aBlankLineIsSkippedALineThatIsNotJsonIsAnsweredAndServingGoesOn() throws Exception {
        try (QuarkusApp.Running app = QuarkusApp.start()) {
            app.initialize();
            app.send("");
            app.send("not json");
            JsonRpcError parse = assertInstanceOf(JsonRpcError.class, app.next());
            assertEquals(ErrorCodes.PARSE_ERROR, parse.error().code());
            assertEquals(null, parse.id());
            app.send(call(1, "echo", "{\"text\":\"still serving\"}"));
            JsonRpcMessage answer = app.next();
            assertEquals(RequestId.of(1), ((JsonRpcResult) answer).id());
            assertEquals("still serving", text(answer));
            app.closeInput();
            assertEquals(0, app.awaitExit());
            assertTrue(app.remainingLines().isEmpty(), "nothing more on the wire");
        }
    }

    @Test
    void aLineOverTheLimitIsAnsweredWithItsIdAndServingGoesOn() throws Exception {
        try (QuarkusApp.Running app = QuarkusApp.start()) {
            app.initialize();
            String huge = "x".repeat(17 * 1024 * 1024); // over the default limit of 16 MiB
            app.send(call(7, "echo", "{\"text\":\"" + huge + "\"}"));
            JsonRpcError tooLarge = assertInstanceOf(JsonRpcError.class, app.next());
            assertEquals(RequestId.of(7), tooLarge.id());
            assertEquals(ErrorCodes.INVALID_REQUEST, tooLarge.error().code());
            app.send(call(8, "echo", "{\"text\":\"after\"}"));
            assertEquals("after", text(app.next()));
            app.closeInput();
            assertEquals(0, app.awaitExit());
        }
    }

    @Test
    void textIsUtf8BothWaysUnderAnAsciiPlatformCharsetAndEveryLineEndsInLf() throws Exception {
        String text = "héllo — ✓ 日本語 😀";
        ProcessBuilder builder = new ProcessBuilder(QuarkusApp.command("-Dfile.encoding=ANSI_X3.4-1968",
                "-Dline.separator=\r\n"));
        builder.environment().put("LC_ALL", "C");
        try (QuarkusApp.Running app = QuarkusApp.start(builder)) {
            app.initialize();
            app.send(call(1, "echo", "{\"text\":\"" + text + "\"}"));
            assertEquals(text, text(app.next()));
            app.closeInput();
            assertEquals(0, app.awaitExit());
            byte[] wire = app.stdout();
            assertFalse(new String(wire, StandardCharsets.ISO_8859_1).contains("\r"), "a \\r on the wire");
            assertTrue(wire.length > 0 && wire[wire.length - 1] == '\n', "the last line ends in \\n");
        }
    }

    @Test
    void fivePipelinedCallsThenEndOfInputGetFiveAnswersBeforeTheExit() throws Exception {
        try (QuarkusApp.Running app = QuarkusApp.start()) {
            app.initialize();
            for (int id = 1; id <= 5; id++) {
                app.send(call(id, "slow", "{\"millis\":300}"));
            }
            app.closeInput();
            Map<RequestId, String> answers = new HashMap<>();
            for (int i = 0; i < 5; i++) {
                JsonRpcResult answer = assertInstanceOf(JsonRpcResult.class, app.next());
                answers.put(answer.id(), text(answer));
            }
            assertEquals(0, app.awaitExit());
            for (int id = 1; id <= 5; id++) {
                assertEquals("slept 300 ms", answers.get(RequestId.of(id)), "the answer to " + id);
            }
            assertTrue(app.remainingLines().isEmpty(), "each answered once");
        }
    }
}
