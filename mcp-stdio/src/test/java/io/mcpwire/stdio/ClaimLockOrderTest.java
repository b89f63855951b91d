package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.stdio.engine.ChildProcesses;
import io.mcpwire.stdio.engine.ClaimRequest;
import io.mcpwire.stdio.engine.InPlaceClaim;
import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The engine's one lock order: nothing of a claim's runs under the registry's lock, so a claim
 * refused while its holder is releasing cannot wait for the holder while the holder waits for the
 * registry; and a claim is in the registry only once it is whole.
 */
class ClaimLockOrderTest {
    private static final int ROUNDS = 10_000;
    private static final ClaimRequest BOTH = new ClaimRequest(true, true, StrayOutput.stderr(), StderrPolicy.GUARDED, 1_000,
            new ChildProcesses(Children.LEAVE, Duration.ZERO));

    @Test
    void aRefusedClaimRacingAnInPlaceReleaseNeverDeadlocks() throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int round = 0; round < ROUNDS; round++) {
            InPlaceClaim holder = new InPlaceClaim(BOTH);
            Thread releasing = new Thread(() -> {
                await(start);
                holder.release();
            }, "releasing the holder");
            Thread claiming = new Thread(() -> {
                await(start);
                try {
                    new InPlaceClaim(BOTH).release(); // granted when the holder was gone already
                } catch (ClaimRefusedException refused) {
                    if (!refused.getMessage().contains("StdioClaim[none]")) {
                        failure.compareAndSet(null, new AssertionError("the refusal names no holder: " + refused.getMessage()));
                    }
                }
            }, "claiming meanwhile");
            releasing.start();
            claiming.start();
            releasing.join(TimeUnit.SECONDS.toMillis(10));
            claiming.join(TimeUnit.SECONDS.toMillis(10));
            if (releasing.isAlive() || claiming.isAlive()) {
                fail("round " + round + ": deadlocked: " + releasing.getState() + " / " + claiming.getState());
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
        }
        new InPlaceClaim(BOTH).release(); // and every descriptor is free again
    }

    @Test
    void aRefusalNamesTheHolderAsItRegisteredAndCallsNothingOfIt() {
        FakeProcess fake = FakeProcess.withPipes();
        try (StdioClaim first = StdioClaim.builder().platform(fake).acquire()) {
            assertTrue(first.isIsolated());
            ClaimRefusedException e = org.junit.jupiter.api.Assertions.assertThrows(ClaimRefusedException.class,
                    () -> StdioClaim.builder().platform(fake).acquire());
            assertTrue(e.getMessage().startsWith("fd 0 (stdin) is already claimed by StdioClaim[fake] taken by thread "
                    + Thread.currentThread().getName()), e.getMessage());
        }
        try (StdioClaim stdoutOnly = StdioClaim.builder().platform(fake).input(false).acquire()) {
            ClaimRefusedException e = org.junit.jupiter.api.Assertions.assertThrows(ClaimRefusedException.class,
                    () -> StdioClaim.builder().platform(fake).acquire().close());
            assertEquals(1, e.descriptor());
            assertTrue(stdoutOnly.isIsolated());
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
