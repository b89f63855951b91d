package io.mcpwire.transport;

import io.mcpwire.stdio.HostWatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcNotification;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A close asked from inside a listener callback returns without waiting for itself, on every path
 * that ends a session: as frameworks do, whose session close closes the transport again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CloseFromCallbackTest {

    /** Closes the transport again from {@code onClosed}, and, when asked, from the first {@code onMessage}. */
    private static final class ClosesAgain implements TransportListener {
        final StdioTransport transport;
        final boolean closeOnMessage;
        final CompletableFuture<TransportClosed> closed = new CompletableFuture<>();
        final CompletableFuture<String> innerCloseReturned = new CompletableFuture<>();
        final List<TransportClosed> calls = new CopyOnWriteArrayList<>();
        final CountDownLatch heard = new CountDownLatch(1);

        ClosesAgain(StdioTransport transport, boolean closeOnMessage) {
            this.transport = transport;
            this.closeOnMessage = closeOnMessage;
            transport.start(this);
        }

        @Override
        public void onMessage(JsonRpcMessage message) {
            heard.countDown();
            if (closeOnMessage) {
                transport.close(); // on the dispatcher thread
                innerCloseReturned.complete("from onMessage on " + Thread.currentThread().getName());
            }
        }

        @Override
        public void onDecodeError(DecodeError error) {
        }

        @Override
        public void onClosed(TransportClosed c) {
            calls.add(c);
            transport.close(); // as an SDK's session close does: back into the transport, on the same thread
            innerCloseReturned.complete("from onClosed on " + Thread.currentThread().getName());
            closed.complete(c);
        }

        TransportClosed await(TransportClosed.Reason... expected) throws Exception {
            TransportClosed c = closed.get(30, TimeUnit.SECONDS);
            assertTrue(List.of(expected).contains(c.reason()), c::toString);
            assertTrue(innerCloseReturned.isDone(), "the close from the callback returned");
            assertEquals(1, calls.size(), "onClosed once: " + calls);
            assertTrue(transport.claim().orElseThrow().isReleased(), "the claim is released");
            return c;
        }
    }

    @Test
    void onHostDeath() throws Exception {
        HostWatchTest.assumeAParentToWatch();
        FakeProcess fake = FakeProcess.builder().hostExits().build();
        ClosesAgain server = new ClosesAgain(StdioTransport.builder().platform(fake).hostWatch(HostWatch.PARENT).build(), false);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertTrue(server.heard.await(10, TimeUnit.SECONDS), "the client spoke: the parent's exit is the host's, not a launcher's");
        fake.endWatchedProcesses(); // the host-watch thread runs the close, and onClosed on it
        server.await(TransportClosed.Reason.HOST_EXITED);
    }

    @Test
    void atEndOfInput() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        ClosesAgain server = new ClosesAgain(StdioTransport.builder().platform(fake).hostWatch(HostWatch.OFF).build(), false);
        fake.client().closeInput();
        server.await(TransportClosed.Reason.END_OF_INPUT);
    }

    @Test
    void onAnExplicitClose() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        ClosesAgain server = new ClosesAgain(StdioTransport.builder().platform(fake).hostWatch(HostWatch.OFF).build(), false);
        server.transport.close(); // this thread wins, and runs onClosed
        server.await(TransportClosed.Reason.CLOSED);
    }

    @Test
    void fromOnMessageThenOnClosed() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        ClosesAgain server = new ClosesAgain(StdioTransport.builder().platform(fake).hostWatch(HostWatch.OFF).build(), true);
        fake.client().send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        server.await(TransportClosed.Reason.CLOSED);
    }

    @Test
    void whenTheClientStopsReading() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        ClosesAgain server = new ClosesAgain(StdioTransport.builder().platform(fake).hostWatch(HostWatch.OFF).build(), false);
        fake.client().disconnect(); // the client exits: its end of input, and the next write fails on the writer thread
        try {
            server.transport.send(new JsonRpcNotification("notifications/message", null));
        } catch (java.io.IOException closedAlready) {
            // end of input won the close first: the session ends all the same
        }
        server.await(TransportClosed.Reason.FAILED, TransportClosed.Reason.END_OF_INPUT);
    }
}
