package io.mcpwire.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;

/** When the context closes first (SIGTERM), the session is drained, then the claim put back. */
class ClaimReleaseTest {

    @Test
    void closingTheContextEndsTheSessionAsAtEndOfInputBeforeTheClaimIsPutBack() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        StdioClaim claim = StdioClaim.builder().platform(fake.provider()).acquire();
        StdioTransport session = StdioTransport.builder().keptClaim(claim).gracePeriod(Duration.ofMillis(300)).build();
        ClaimRelease release = new ClaimRelease(claim);
        release.drains(session);
        CountDownLatch received = new CountDownLatch(1);
        CompletableFuture<Boolean> releasedWhenClosed = new CompletableFuture<>();
        CompletableFuture<TransportClosed> closed = new CompletableFuture<>();
        session.start(new TransportListener() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                received.countDown(); // never answered: the drain gives it the grace, then counts it lost
            }

            @Override
            public void onClosed(TransportClosed c) {
                releasedWhenClosed.complete(claim.isReleased());
                closed.complete(c);
            }
        });
        fake.client().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}");
        assertTrue(received.await(30, TimeUnit.SECONDS));

        release.onApplicationEvent(new ContextClosedEvent(new GenericApplicationContext()));

        assertTrue(closed.isDone(), "the session ended before the context's close went on");
        assertFalse(releasedWhenClosed.get(), "the claim was still held while the session drained");
        assertEquals(1, closed.get().dropped(), closed.get()::toString);
        assertTrue(claim.isReleased(), "then the claim was put back");
    }
}
