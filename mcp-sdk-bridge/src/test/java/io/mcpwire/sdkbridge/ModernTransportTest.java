package io.mcpwire.sdkbridge;

import io.mcpwire.stdio.HostWatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.transport.StdioTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.server.feature.ServerChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The official SDK 2.2's modern server over {@link McpwireStdioMcpTransport}, on the fake descriptor table. */
class ModernTransportTest {
    private static final Duration T = Duration.ofSeconds(30);
    static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    /** A modern request: {@code params} are the members besides {@code _meta}, or empty. */
    static String request(Object id, String method, String params) {
        String idJson = id instanceof String s ? "\"" + s + "\"" : String.valueOf(id);
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"method\":\"" + method + "\",\"params\":{"
                + (params.isEmpty() ? "" : params + ",") + META + "}}";
    }

    static String call(Object id, String tool, String arguments) {
        return request(id, "tools/call", "\"name\":\"" + tool + "\",\"arguments\":" + arguments);
    }

    private record Served(FakeProcess fake, TableSnapshot before, McpwireStdioMcpTransport transport, Mono<Void> ended) {
    }

    private static Served serve(Flux<ServerChange> changes, Duration grace) {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        StdioTransport stdio = StdioTransport.builder().platform(fake).gracePeriod(grace).hostWatch(HostWatch.OFF).build();
        McpwireStdioMcpTransport transport = new McpwireStdioMcpTransport(NoisyModernServer.server(false, changes),
                McpJsonDefaults.getMapper(), stdio);
        return new Served(fake, before, transport, transport.start().cache());
    }

    @Test
    void theModernServerAnswersDiscoverListAndCallsOnAClaimedTableAndPutsItBackAtEndOfInput() throws Exception {
        Served s = serve(Flux.never(), Duration.ofSeconds(5));
        assertEquals("null device (read)", s.fake().describe(0), "claimed");
        s.fake().client().send(request(1, "server/discover", ""));
        String discover = s.fake().client().readLine(T);
        assertTrue(discover.contains("\"id\":1") && discover.contains("\"supportedVersions\":[\"2026-07-28\"]")
                && discover.contains("\"resultType\":\"complete\""), discover);
        s.fake().client().send(request(2, "tools/list", ""));
        String list = s.fake().client().readLine(T);
        assertTrue(list.contains("\"name\":\"noisy\"") && list.contains("\"name\":\"slow\""), list);
        s.fake().client().send(call("four", "echo", "{\"text\":\"over mcpwire\"}"));
        String echo = s.fake().client().readLine(T);
        assertTrue(echo.contains("\"id\":\"four\"") && echo.contains("over mcpwire"), echo);
        s.fake().client().closeInput();
        s.ended().block(T);
        assertTrue(s.transport().transport().claim().orElseThrow().isReleased());
        assertEquals(s.before(), s.fake().snapshot(), "put back as it was");
    }

    @Test
    void fivePipelinedSlowCallsAreAllAnsweredWhenStdinClosesRightAfterThem() throws Exception {
        Served s = serve(Flux.never(), Duration.ofSeconds(5));
        for (int id = 1; id <= 5; id++) {
            s.fake().client().send(call(id, "slow", "{}"));
        }
        s.fake().client().closeInput();
        Set<String> answered = new TreeSet<>();
        for (String line : s.fake().client().readLines(5, T)) {
            assertTrue(line.contains("slept"), line);
            answered.add(line.replaceAll(".*\"id\":(\\d+).*", "$1"));
        }
        assertEquals(Set.of("1", "2", "3", "4", "5"), answered);
        s.ended().block(T);
    }

    @Test
    void aSeventeenMebibyteCallIsAnsweredWithAnErrorCarryingItsIdAndTheNextIsServed() throws Exception {
        Served s = serve(Flux.never(), Duration.ofSeconds(5));
        s.fake().client().send(call(7, "echo", "{\"text\":\"" + "x".repeat(17 * 1024 * 1024) + "\"}"));
        s.fake().client().send(call(8, "echo", "{\"text\":\"after\"}"));
        String refused = s.fake().client().readLine(T);
        assertTrue(refused.startsWith("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32600,") && refused.contains("exceeds the limit"), refused);
        String next = s.fake().client().readLine(T);
        assertTrue(next.contains("\"id\":8") && next.contains("after"), next);
        s.fake().client().closeInput();
        s.ended().block(T);
    }

    @Test
    void aStreamedAnswerIsWrittenWholeAndInOrderAndACancelledCallIsNotAnswered() throws Exception {
        Served s = serve(Flux.never(), Duration.ofSeconds(5));
        s.fake().client().send(request(1, "tools/call", "\"name\":\"progress\",\"arguments\":{}").replace(META,
                META.replace("}}", "},\"progressToken\":\"p\"}")));
        List<String> streamed = s.fake().client().readLines(4, T);
        for (int i = 0; i < 3; i++) {
            assertTrue(streamed.get(i).contains("notifications/progress") && streamed.get(i).contains("step " + (i + 1)), streamed.toString());
        }
        assertTrue(streamed.get(3).contains("\"id\":1") && streamed.get(3).contains("done"), streamed.toString());
        s.fake().client().send(call(2, "slow", "{}"));
        s.fake().client().send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}");
        s.fake().client().send(call(3, "echo", "{\"text\":\"third\"}"));
        s.fake().client().closeInput();
        s.ended().block(T);
        List<String> rest = new ArrayList<>(List.of(s.fake().client().drainText().split("\n")));
        rest.removeIf(String::isEmpty);
        assertEquals(1, rest.size(), "the cancelled call is not answered: " + rest);
        assertTrue(rest.get(0).contains("\"id\":3") && rest.get(0).contains("third"), rest.toString());
    }

    @Test
    void badInputGetsTheErrorsTheSdkGivesAndServingGoesOn() throws Exception {
        Served s = serve(Flux.never(), Duration.ofSeconds(5));
        s.fake().client().send("not json");
        assertTrue(s.fake().client().readLine(T).contains("\"id\":null,\"error\":{\"code\":-32700"));
        s.fake().client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        String initialize = s.fake().client().readLine(T);
        assertTrue(initialize.contains("\"id\":1,\"error\":{\"code\":-32022"), "the SDK refuses the legacy handshake: " + initialize);
        s.fake().client().send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}");
        assertTrue(s.fake().client().readLine(T).contains("\"id\":2,\"error\":{\"code\":-32602"), "no _meta: the SDK's invalid params");
        s.fake().client().send(request(3, "no/such/method", ""));
        assertTrue(s.fake().client().readLine(T).contains("\"id\":3,\"error\":{\"code\":-32601"));
        s.fake().client().send(call(4, "slow", "{}"));
        s.fake().client().send(call(4, "echo", "{\"text\":\"twice\"}"));
        String duplicate = s.fake().client().readLine(T);
        assertTrue(duplicate.contains("\"id\":4,\"error\":{\"code\":-32600") && duplicate.contains("still in flight"), duplicate);
        assertTrue(s.fake().client().readLine(T).contains("slept"));
        s.fake().client().closeInput();
        s.ended().block(T);
    }

    @Test
    void anOpenSubscriptionIsEndedWithItsResultAtEndOfInputAndTheSessionEndsWithoutItsGrace() throws Exception {
        // A grace period far longer than the test's own wait: only the end of the subscription ends the session in time.
        Served s = serve(Flux.never(), Duration.ofMinutes(10));
        s.fake().client().send(request("sub", "subscriptions/listen", "\"notifications\":{\"toolsListChanged\":true}"));
        String ack = s.fake().client().readLine(T);
        assertTrue(ack.contains("notifications/subscriptions/acknowledged"), ack);
        s.fake().client().closeInput();
        s.ended().block(T);
        String result = s.fake().client().readLine(T);
        assertTrue(result.contains("\"id\":\"sub\"") && result.contains("\"result\""), result);
    }

    @Test
    void closeGracefullyAnswersTheCallsInFlightThenPutsTheStreamsBack() throws Exception {
        Served s = serve(Flux.never(), Duration.ofSeconds(5));
        s.fake().client().send(call(1, "slow", "{}"));
        s.fake().client().send(request(2, "server/discover", ""));
        assertTrue(s.fake().client().readLine(T).contains("\"id\":2"));
        s.transport().closeGracefully().block(T);
        assertTrue(s.fake().client().readLine(T).contains("slept"), "the call in flight was answered");
        assertTrue(s.transport().transport().claim().orElseThrow().isReleased());
        s.ended().block(T);
    }
}
