package io.mcpwire.platform.test;

import io.mcpwire.platform.rules.windows.Patience;
import java.util.concurrent.TimeUnit;

/**
 * The Windows rules' patience over the model: a call is taken as stalled exactly when its thread
 * waits for a lock that another thread holds (the file object's, or the C runtime's lock of a
 * descriptor), since in the model such a lock is held only by a call blocked on a pipe, and NT
 * and the C runtime wait for it without a timeout. So the runs do not depend on the clock.
 */
final class FakePatience implements Patience {
    private final FakeKernel kernel;

    FakePatience(FakeKernel kernel) {
        this.kernel = kernel;
    }

    @Override
    public boolean await(Pending call) throws InterruptedException {
        while (true) {
            if (call.awaitReturn(TimeUnit.MILLISECONDS.toNanos(1))) {
                return true;
            }
            Thread worker = call.worker();
            if (kernel.locked(() -> kernel.threads.waitsOnLock(worker))) {
                return call.awaitReturn(0);
            }
        }
    }
}
