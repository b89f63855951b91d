package io.mcpwire.transport;

import io.mcpwire.stdio.HostWatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The listener hears that no more requests will come once every request received has reached it,
 * so that it can answer what only the client's departure ends (an open subscription); and a
 * server can end its session the same way itself, {@link StdioTransport#closeWhenAnswered()}.
 */
class InputEndedTest {
    private static final Duration T = Duration.ofSeconds(30);

    /** Holds {@code listen} requests open until the input ends, then answers them; answers {@code ping}. */
    private static class Subscriptions implements TransportListener {
        final StdioTransport transport;
        final List<RequestId> open = new CopyOnWriteArrayList<>();
        final List<String> events = new CopyOnWriteArrayList<>();
        final CompletableFuture<TransportClosed> closed = new CompletableFuture<>();
        final CountDownLatch inputEnded = new CountDownLatch(1);

        Subscriptions(StdioTransport transport) {
            this.transport = transport;
        }

        @Override
        public void onMessage(JsonRpcMessage message) {
            if (message instanceof JsonRpcRequest r) {
                events.add("request " + r.id());
                if (r.method().equals("listen")) {
                    open.add(r.id());
                } else {
                    answer(r.id());
                }
            }
        }

        @Override
        public void onInputEnded() {
            events.add("input ended");
            open.forEach(this::answer);
            inputEnded.countDown();
        }

        @Override
        public void onClosed(TransportClosed c) {
            events.add("closed");
            closed.complete(c);
        }

        private void answer(RequestId id) {
            try {
                transport.send(new JsonRpcResult(id, JsonNodeFactory.instance.objectNode()));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void atEndOfInputTheListenerHearsItAfterEveryRequestAndTheOpenSubscriptionIsAnswered() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        // A grace period longer than the test's own wait: only the end of input can end the subscription in time.
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(Duration.ofMinutes(5)).hostWatch(HostWatch.OFF).build();
        Subscriptions server = new Subscriptions(t);
        t.start(server);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"listen\"}");
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"listen\"}");
        fake.client().closeInput();
        TransportClosed c = server.closed.get(T.toSeconds(), TimeUnit.SECONDS);
        assertEquals(TransportClosed.Reason.END_OF_INPUT, c.reason());
        assertEquals(0, c.dropped(), "every request was answered");
        assertEquals(List.of("request 1", "request 2", "request 3", "input ended", "closed"), server.events);
        List<String> answers = fake.client().readLines(3, T);
        assertEquals(List.of("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"), answers);
    }

    @Test
    void closeWhenAnsweredStopsReadingWaitsForTheAnswerOwedThenCloses() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(Duration.ofMinutes(5)).hostWatch(HostWatch.OFF).build();
        CountDownLatch slowArrived = new CountDownLatch(1);
        CompletableFuture<RequestId> slow = new CompletableFuture<>();
        Subscriptions server = new Subscriptions(t) {
            @Override
            public void onMessage(JsonRpcMessage message) {
                if (message instanceof JsonRpcRequest r && r.method().equals("slow")) {
                    slow.complete(r.id());
                    slowArrived.countDown();
                    return;
                }
                super.onMessage(message);
            }
        };
        t.start(server);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"slow\"}");
        assertTrue(slowArrived.await(T.toSeconds(), TimeUnit.SECONDS));
        CompletableFuture<Void> closing = CompletableFuture.runAsync(t::closeWhenAnswered);
        assertTrue(server.inputEnded.await(T.toSeconds(), TimeUnit.SECONDS), "the listener heard that no more will come");
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}"); // after the input ended: not taken
        assertFalse(server.closed.isDone(), "the close waits for the answer owed");
        assertFalse(closing.isDone());
        t.send(new JsonRpcResult(slow.get(), JsonNodeFactory.instance.objectNode()));
        closing.get(T.toSeconds(), TimeUnit.SECONDS);
        TransportClosed c = server.closed.get(T.toSeconds(), TimeUnit.SECONDS);
        assertEquals(TransportClosed.Reason.CLOSED, c.reason());
        assertEquals(0, c.dropped());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", fake.client().readLine(T));
        assertEquals("", fake.client().drainText(), "nothing else: the ping sent after the input ended was not taken");
        assertFalse(server.events.contains("request 8"), server.events.toString());
    }

    @Test
    void closeWhenAnsweredFromTheListenerOnTheDispatcherReturnsAtOnceAndTheAnswerGoesOut() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioTransport t = StdioTransport.builder().platform(fake).gracePeriod(Duration.ofMinutes(5)).hostWatch(HostWatch.OFF).build();
        Subscriptions server = new Subscriptions(t) {
            @Override
            public void onMessage(JsonRpcMessage message) {
                if (message instanceof JsonRpcRequest r && r.method().equals("shutdown")) {
                    t.closeWhenAnswered(); // a server's own "shut down" tool: the close must not wait for this very answer here
                    events.add("close asked");
                }
                super.onMessage(message);
            }
        };
        t.start(server);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}");
        TransportClosed c = server.closed.get(T.toSeconds(), TimeUnit.SECONDS);
        assertEquals(TransportClosed.Reason.CLOSED, c.reason());
        assertEquals(0, c.dropped(), "the answer to the shutdown request went out");
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", fake.client().readLine(T));
        assertEquals(List.of("close asked", "request 1", "input ended", "closed"), server.events);
    }
}
