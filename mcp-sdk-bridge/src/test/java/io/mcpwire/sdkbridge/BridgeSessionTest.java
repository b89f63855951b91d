package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.transport.StdioTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The official SDK's session over the bridge, on the fake descriptor table. */
class BridgeSessionTest {
    private static final Duration T = Duration.ofSeconds(30);

    @Test
    void anOfficialSdkServerAnswersOverTheBridgeAndEndOfInputWaitsForItsAnswers() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        var mapper = McpJsonDefaults.getMapper();
        CountDownLatch inputClosed = new CountDownLatch(1);
        var provider = new McpwireStdioServerTransportProvider(mapper, StdioTransport.builder().platform(fake).build());
        assertTrue(provider.transport().claim().orElseThrow().isIsolated());
        McpSyncServer server = McpServer.sync(provider)
                .serverInfo("bridge-test", "1")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(SyncToolSpecification.builder()
                        .tool(Tool.builder("echo", Map.of("type", "object")).description("echo").build())
                        .callHandler((exchange, request) -> {
                            try {
                                inputClosed.await(); // still working when the client closes its end
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return CallToolResult.builder().addTextContent(String.valueOf(request.arguments().get("text"))).build();
                        })
                        .build())
                .build();

        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        String init = fake.client().readLine(T);
        assertTrue(init.contains("\"id\":1") && init.contains("\"protocolVersion\":\"2025-06-18\"") && init.contains("bridge-test"), init);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertTrue(fake.client().readLine(T).contains("\"name\":\"echo\""));
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"over the bridge\"}}}");
        fake.client().send("this is not JSON");
        fake.client().closeInput(); // at once: the call is still running
        String parseError = fake.client().readLine(T);
        assertTrue(parseError.contains("\"id\":null") && parseError.contains("-32700"), "mcpwire answers bad input: " + parseError);
        inputClosed.countDown(); // only now may the call finish: its answer comes after end of input
        String answer = fake.client().readLine(T);
        assertTrue(answer.contains("\"id\":3") && answer.contains("over the bridge"), "the in-flight call is answered: " + answer);
        assertTimeoutPreemptively(T, provider::awaitClosed, "the session ends after end of input");
        assertTrue(provider.transport().claim().orElseThrow().isReleased(), "the claim is released after the answers");
        assertEquals(before, fake.snapshot());
        server.closeGracefully();
    }
}
