package io.mcpwire.platform.rules.windows;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Java child start, as {@code ProcessImpl.create} makes one: it takes the child-start monitor,
 * and logs {@code "child start"} with the binding's calls once it has it. Started, it says whether
 * the monitor kept it out (it waited to enter) or not (it went in, or through).
 */
final class ChildStartProbe {
    private final Thread thread;
    private final boolean keptOut;

    private ChildStartProbe(Thread thread, boolean keptOut) {
        this.thread = thread;
        this.keptOut = keptOut;
    }

    /** Starts one now and returns once it is either waiting for the monitor or inside it. */
    static ChildStartProbe tryStart(ScriptedWin32 w) {
        AtomicBoolean inside = new AtomicBoolean();
        Thread t = new Thread(() -> {
            synchronized (w.childStarts) {
                inside.set(true);
                w.mark("child start");
            }
        }, "a Java child start");
        t.setDaemon(true);
        t.start();
        while (true) {
            Thread.State state = t.getState(); // read before inside: blocked and not yet inside is blocked on the monitor
            if (inside.get() || state == Thread.State.TERMINATED) {
                return new ChildStartProbe(t, false);
            }
            if (state == Thread.State.BLOCKED) {
                return new ChildStartProbe(t, true);
            }
            Thread.onSpinWait();
        }
    }

    /** Whether it had to wait for the monitor when started. */
    boolean wasKeptOut() {
        return keptOut;
    }

    /** Waits until it went through. */
    void awaitStarted() throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(30));
        if (thread.isAlive()) {
            throw new AssertionError("the child start never got the monitor");
        }
    }
}
