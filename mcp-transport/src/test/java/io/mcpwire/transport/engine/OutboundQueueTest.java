package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.transport.engine.OutboundQueue.Frame;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutboundQueueTest {
    private static final Duration T = Duration.ofSeconds(30);

    private static Frame frame(int tag, int length) {
        byte[] bytes = new byte[length];
        bytes[0] = (byte) tag;
        return new Frame(new byte[][] {bytes}, length);
    }

    private static List<Integer> tags(List<Frame> batch) {
        List<Integer> tags = new ArrayList<>();
        batch.forEach(f -> tags.add((int) f.parts()[0][0]));
        return tags;
    }

    @Test
    void framesPutWithMoreComingAreTakenTogetherOnceTheSenderFlushes() throws Exception {
        OutboundQueue queue = new OutboundQueue(1 << 20);
        queue.put(frame(1, 100), true);
        queue.put(frame(2, 100), true);
        queue.put(frame(3, 100), true);
        queue.markDue();
        assertEquals(List.of(1, 2, 3), tags(queue.take()));
    }

    @Test
    void aFrameWithNoMoreComingTakesThoseQueuedBeforeItAlong() throws Exception {
        OutboundQueue queue = new OutboundQueue(1 << 20);
        queue.put(frame(1, 100), true);
        queue.put(frame(2, 100), true);
        queue.put(frame(3, 100), false);
        assertEquals(List.of(1, 2, 3), tags(queue.take()));
    }

    @Test
    void aFramePutWithMoreComingIsTakenEvenWhenNothingMoreComes() throws Exception {
        OutboundQueue queue = new OutboundQueue(1 << 20);
        queue.put(frame(1, 100), true);
        assertEquals(List.of(1), assertTimeoutPreemptively(T, () -> tags(queue.take())), "after the linger, not never");
        queue.written();
        assertTrue(queue.isIdle());
    }

    @Test
    void batchesAreAtMostTheBatchSizeAndKeepTheOrder() throws Exception {
        OutboundQueue queue = new OutboundQueue(1 << 20);
        int size = OutboundQueue.BATCH_BYTES / 4;
        for (int i = 1; i <= 10; i++) {
            queue.put(frame(i, size), true);
        }
        queue.markDue();
        List<Integer> order = new ArrayList<>();
        while (order.size() < 10) {
            List<Frame> batch = queue.take();
            assertTrue(batch.stream().mapToInt(Frame::length).sum() <= OutboundQueue.BATCH_BYTES, "one batch at most");
            order.addAll(tags(batch));
            queue.written();
        }
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), order);
    }

    @Test
    void aClosedQueueDropsWhatWaitsAndGivesTheWriterNothingMore() throws Exception {
        OutboundQueue queue = new OutboundQueue(1 << 20);
        queue.put(frame(1, 100), true);
        queue.put(frame(2, 100), true);
        assertEquals(2, queue.close());
        assertNull(queue.take());
    }
}
