package io.mcpwire.platform.test;

import java.util.concurrent.TimeUnit;

/**
 * What another thread of a fake Windows process does between two logged calls of the claim
 * ({@link FakeJvm#interfereAfter}): what a single-threaded replay cannot show.
 */
public enum Interference {
    /**
     * Another thread on the calling thread's processor opens a handle (an event) and keeps it: it
     * takes whatever value the allocator hands out next there, a start-up value just freed included.
     */
    ALLOCATE,
    /** The calling thread moves to the other processor, unless it is pinned. */
    MIGRATE,
    /**
     * Another thread starts a Java child with {@code inheritIO()}, as the JDK does: it synchronises
     * on the child-start monitor ({@code ProcessImpl.class}; the model's own) and only then looks at
     * what the start-up values name and which handles are inheritable. The child is judged when it
     * gets the monitor ({@link FakeJvm#racingChildren()}).
     */
    START_CHILD;

    /** Runs it, under the kernel's lock, right after a call of {@code caller}. */
    void run(FakeKernel kernel, Thread caller) {
        KernelThreads threads = kernel.threads;
        switch (this) {
            case ALLOCATE -> {
                FakeFile event = FakeFile.object(kernel.nextId(), FakeFile.Role.EVENT, "an event of another thread", null);
                kernel.crt().handles.open(event, false, threads.cpuOf(caller));
            }
            case MIGRATE -> threads.migrate(caller);
            case START_CHILD -> startChild(kernel);
        }
    }

    private static void startChild(FakeKernel kernel) {
        boolean[] done = {false};
        Thread child = new Thread(() -> {
            synchronized (kernel.threads.childStartMonitor) {
                kernel.locked(() -> {
                    FakeCrt.ChildReach r = kernel.crt().javaChild(new boolean[] {true, true, true}, false);
                    kernel.racingChildren.add(new FakeChild(kernel, r.stdio(), r.reach(), r.hidden()));
                    done[0] = true;
                    kernel.changed.signalAll();
                    return null;
                });
            }
        }, "a thread starting an inheritIO() child");
        child.setDaemon(true);
        child.start();
        // Deterministic: the child has looked, or it waits for the monitor, before the claim goes on.
        while (!done[0] && child.getState() != Thread.State.BLOCKED) {
            try {
                kernel.changed.await(1, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
