package io.mcpwire.transport;

import io.mcpwire.stdio.HostWatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.JsonNodeFactory;

/** When the host exits while stdin stays open, the session ends as at end of input. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostWatchTest {
    private static final Duration T = Duration.ofSeconds(10);

    /** Answers every request with {}, once {@code go} allows. */
    private static final class Answers implements TransportListener {
        final StdioTransport transport;
        final CompletableFuture<TransportClosed> closed = new CompletableFuture<>();
        final CountDownLatch go;
        final CountDownLatch received = new CountDownLatch(1);

        Answers(StdioTransport transport, CountDownLatch go) {
            this.transport = transport;
            this.go = go;
            transport.start(this);
        }

        @Override
        public void onMessage(JsonRpcMessage message) {
            if (message instanceof JsonRpcRequest r) {
                try {
                    received.countDown();
                    go.await();
                    transport.send(new JsonRpcResult(r.id(), JsonNodeFactory.instance.objectNode()));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        }

        @Override
        public void onDecodeError(DecodeError error) {
        }

        @Override
        public void onClosed(TransportClosed c) {
            closed.complete(c);
        }
    }

    /** The watch watches this JVM's parent: there must be one, and not init. */
    static void assumeAParentToWatch() {
        Assumptions.assumeTrue(ProcessHandle.current().parent().filter(p -> p.pid() != 1).isPresent(),
                "the test JVM is init's child: the host watch has no process to watch");
    }

    @Test
    void theHostsExitEndsTheSessionAsEndOfInputWithTheRequestReceivedAnswered() throws Exception {
        assumeAParentToWatch();
        FakeProcess fake = FakeProcess.builder().hostExits().build();
        TableSnapshot before = fake.snapshot();
        CountDownLatch go = new CountDownLatch(1);
        Answers server = new Answers(StdioTransport.builder().platform(fake).hostWatch(HostWatch.PARENT).build(), go);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        assertTrue(server.received.await(10, TimeUnit.SECONDS), "the request is received");
        fake.endWatchedProcesses(); // stdin stays open: a helper of the host still holds its write end
        go.countDown(); // the request received before the host exited is answered
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", fake.client().readLine(T));
        TransportClosed c = server.closed.get(30, TimeUnit.SECONDS);
        assertEquals(TransportClosed.Reason.HOST_EXITED, c.reason(), c::toString);
        assertEquals(0, c.dropped(), c::toString);
        assertTrue(server.transport.claim().orElseThrow().isReleased(), "the claim is released");
        assertEquals(before, fake.snapshot(), "the descriptors are put back");
    }

    @Test
    void withTheWatchOffTheHostsExitChangesNothing() throws Exception {
        FakeProcess fake = FakeProcess.builder().hostExits().build();
        StdioTransport t = StdioTransport.builder().platform(fake).hostWatch(HostWatch.OFF).build();
        Answers server = new Answers(t, new CountDownLatch(0));
        fake.endWatchedProcesses();
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", fake.client().readLine(T), "still serving");
        fake.client().closeInput();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, server.closed.get(30, TimeUnit.SECONDS).reason());
    }
}
