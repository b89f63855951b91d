package io.mcpwire.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpwire.benchmarks.harness.AnswerCheck.Checked;
import io.mcpwire.benchmarks.harness.AnswerCheck.Verdict;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AnswerCheckTest {
    private static final Expected ECHO = new Expected.Echoed("abc", false);
    private static final Expected MODERN_ECHO = new Expected.Echoed("abc", true);

    private static Checked check(String line, Expected expected) {
        return AnswerCheck.check(line.getBytes(StandardCharsets.UTF_8), expected);
    }

    private static String result(long id, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
    }

    @Test
    void theEchoedTextWholeIsRight() {
        assertEquals(new Checked(7, Verdict.RIGHT),
                check(result(7, "{\"content\":[{\"type\":\"text\",\"text\":\"abc\"}],\"isError\":false}"), ECHO));
        assertEquals(new Checked(7, Verdict.RIGHT), check("{\"result\":{\"isError\":false,\"content\":[{\"text\":\"abc\",\"type\":\"text\"}]},"
                + "\"id\":7,\"jsonrpc\":\"2.0\"}", ECHO), "members in any order, the id last");
        assertEquals(Verdict.RIGHT, check(result(7, "{\"content\":[{\"type\":\"text\",\"text\":\"abc\"}]}"), ECHO).verdict(),
                "isError may be left out");
    }

    @Test
    void aTextThatDiffersInLengthOrContentIsWrong() {
        assertEquals(Verdict.WRONG, check(result(1, "{\"content\":[{\"type\":\"text\",\"text\":\"ab\"}]}"), ECHO).verdict());
        assertEquals(Verdict.WRONG, check(result(1, "{\"content\":[{\"type\":\"text\",\"text\":\"abd\"}]}"), ECHO).verdict());
        assertEquals(Verdict.WRONG, check(result(1, "{\"content\":[{\"type\":\"text\",\"text\":\"\\\"abc\\\"\"}]}"), ECHO).verdict(),
                "a JSON-quoted text is not the text");
        assertEquals(Verdict.WRONG, check(result(1, "{\"content\":[{\"type\":\"text\",\"text\":\"abc\"},{\"type\":\"text\",\"text\":\"abc\"}]}"),
                ECHO).verdict(), "one content item, not two");
        assertEquals(Verdict.WRONG, check(result(1, "{\"content\":[{\"type\":\"image\",\"text\":\"abc\"}]}"), ECHO).verdict());
        assertEquals(Verdict.WRONG, check(result(1, "{}"), ECHO).verdict());
    }

    @Test
    void errorsAreErrors() {
        assertEquals(new Checked(3, Verdict.ERROR),
                check("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"busy\"}}", ECHO));
        assertEquals(new Checked(3, Verdict.ERROR),
                check(result(3, "{\"content\":[{\"type\":\"text\",\"text\":\"abc\"}],\"isError\":true}"), ECHO), "a tool error");
    }

    @Test
    void whatIsNotOneJsonRpcResponseIsWrong() {
        assertEquals(Verdict.WRONG, check("[main] WARN Protocol - Rejecting request tools/call (id: 5)", ECHO).verdict());
        assertEquals(Verdict.WRONG, check(result(1, "{\"content\":[{\"type\":\"text\",\"text\":\"abc\"}]}") + " {}", ECHO).verdict());
        assertEquals(Verdict.WRONG, check("{\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"abc\"}]}}", ECHO).verdict(),
                "no jsonrpc member");
        assertEquals(new Checked(-1, Verdict.WRONG), check("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}", new Expected.Pong()),
                "the harness sends numeric ids only");
        assertEquals(Verdict.WRONG, check("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":", ECHO).verdict(), "cut short");
    }

    @Test
    void aModernResultSaysItIsComplete() {
        String content = "\"content\":[{\"type\":\"text\",\"text\":\"abc\"}]";
        assertEquals(Verdict.RIGHT, check(result(2, "{" + content + ",\"resultType\":\"complete\",\"_meta\":{\"x\":{\"y\":[1]}}}"),
                MODERN_ECHO).verdict());
        assertEquals(Verdict.WRONG, check(result(2, "{" + content + "}"), MODERN_ECHO).verdict());
        assertEquals(Verdict.WRONG, check(result(2, "{" + content + ",\"resultType\":\"input_required\"}"), MODERN_ECHO).verdict());
    }

    @Test
    void openingsAndRoundTrips() {
        assertEquals(Verdict.RIGHT, check(result(0, "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}"),
                new Expected.Initialized()).verdict());
        assertEquals(Verdict.WRONG, check(result(0, "{\"capabilities\":{}}"), new Expected.Initialized()).verdict());
        assertEquals(Verdict.RIGHT, check(result(4, "{}"), new Expected.Pong()).verdict());
        String discovered = "{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}},\"resultType\":\"complete\"}";
        assertEquals(Verdict.RIGHT, check(result(5, discovered), new Expected.Discovered()).verdict());
        assertEquals(Verdict.WRONG, check(result(5, discovered.replace("2026-07-28", "2025-11-25")), new Expected.Discovered()).verdict());
    }

    @Test
    void aLineSentBackIsRightForCat() {
        Requests.EchoCall call = new Requests(Era.LINES, Peer.EchoText.AS_SENT).echo("abc");
        byte[] line = call.line(9);
        assertEquals(new Checked(9, Verdict.RIGHT), AnswerCheck.check(line, 0, line.length - 1, call.expected()));
    }

    @Test
    void theRequestsSayWhatTheirAnswersMustBe() {
        Requests modern = new Requests(Era.MODERN, Peer.EchoText.AS_SENT);
        String request = new String(modern.echo("abc").line(1), StandardCharsets.US_ASCII);
        assertEquals(true, request.contains("\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}"), request);
        assertEquals(true, new String(modern.roundTrip(3), StandardCharsets.US_ASCII).contains("\"method\":\"server/discover\""));
        assertEquals(new Expected.Echoed("abc", true), modern.echo("abc").expected());
        assertEquals(new Expected.Echoed("\"abc\"", false), new Requests(Era.LEGACY, Peer.EchoText.SPRING_AI_RESULT).echo("abc").expected(),
                "Spring AI writes a String that is not JSON out as a JSON string");
    }
}
