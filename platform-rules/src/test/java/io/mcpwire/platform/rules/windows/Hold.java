package io.mcpwire.platform.rules.windows;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A call held inside the scripted binding, as one waits behind a lock another thread holds: it
 * stays there until released, or cancelled ({@code CancelSynchronousIo} of its thread), and then
 * fails with {@code ERROR_OPERATION_ABORTED}.
 */
final class Hold {
    /** Longer than any machine needs to reach a call; a test that waits this long has failed. */
    private static final long BOUND_SECONDS = 30;

    final String call;
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile Thread worker;
    private volatile boolean cancelled;

    Hold(String call) {
        this.call = call;
    }

    /** On the calling thread, inside the call: waits until released; whether it was cancelled. */
    boolean waitInside() {
        worker = Thread.currentThread();
        entered.countDown();
        boolean interrupted = false;
        while (true) {
            try {
                released.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return cancelled;
    }

    /** Waits until the call is inside the binding. */
    Hold awaitEntered() throws InterruptedException {
        if (!entered.await(BOUND_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError(call + " was never made");
        }
        return this;
    }

    /** Lets the call answer as scripted. */
    void release() {
        released.countDown();
    }

    void cancel() {
        cancelled = true;
        released.countDown();
    }

    /** The thread that made the call. */
    Thread worker() {
        return worker;
    }

    /** Releases the call and waits for its thread (a lane's, which ends with the call) to end. */
    void releaseAndAwaitWorker() throws InterruptedException {
        release();
        worker.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
        if (worker.isAlive()) {
            throw new AssertionError(worker.getName() + " did not end after " + call + " was released");
        }
    }
}
