package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.TableSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

class ClaimConcurrencyTest {

    @RepeatedTest(20)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eightThreadsRacingForStdinGetOneWinnerAndTheTableIsUnchangedAfter() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch claimed = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<StdioClaim>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        StdioClaim c = StdioClaim.builder().platform(fake).output(false).acquire();
                        claimed.countDown();
                        release.await(); // hold it until every racer has tried
                        c.close();
                        return c;
                    } catch (ClaimRefusedException e) {
                        assertEquals(0, e.descriptor());
                        refused.incrementAndGet();
                        claimed.countDown();
                        return null;
                    }
                }));
            }
            start.countDown();
            assertTrue(claimed.await(30, TimeUnit.SECONDS));
            release.countDown();
            int winners = 0;
            for (Future<StdioClaim> f : results) {
                StdioClaim c = f.get(30, TimeUnit.SECONDS);
                if (c != null) {
                    winners++;
                    assertTrue(c.isReleased());
                }
            }
            assertEquals(1, winners, "exactly one claim wins");
            assertEquals(threads - 1, refused.get(), "the rest are refused");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
        fake.assertWireAlwaysReachable();
        StdioClaim.builder().platform(fake).acquire().close(); // and the registry is free again
    }
}
