package io.mcpwire.platform.test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What single-threaded replays cannot show, for a fake Windows process: the locks other threads
 * hold (an NT file object's lock, held by a blocked synchronous {@code ReadFile}/{@code WriteFile};
 * the C runtime's per-descriptor lock, held by a native {@code _read}/{@code _write}), the processor
 * each thread runs on (for per-processor free lists) and which are pinned, the thread whose lock
 * waits are hangs, the scheduled {@link Interference}s, the hold on thread handles of a prefix,
 * and the application's threads blocking in I/O ({@link ApplicationThreads}).
 *
 * <p>Threads: every method runs under the kernel's lock.
 */
final class KernelThreads {
    private final FakeKernel kernel;
    private final Map<Thread, Integer> cpu = new HashMap<>();
    private final Set<Thread> pinned = new HashSet<>();
    /** Threads waiting for a lock another thread holds, and what for. */
    private final Map<Thread, String> lockWaiters = new HashMap<>();
    /** The claim's caller: a lock wait of its is a hang, recorded, and the call goes on. */
    private Thread watched;
    private final Map<Integer, List<Interference>> interference = new HashMap<>();
    /** Each thread inside a synchronous {@code ReadFile} or {@code WriteFile} on a pipe, and the pipe end. */
    private final Map<Thread, FakeFile> inIo = new HashMap<>();
    /** The application's threads ({@link ApplicationThreads}) that have not ended. */
    private final Set<Thread> application = new HashSet<>();
    /** Whether the process has ended: a wait inside a blocking call then ends too. */
    boolean processEnded;
    /** What native reads took from the stdin wire: bytes the client sent that the server never sees. */
    final ByteArrayOutputStream takenFromStdinWire = new ByteArrayOutputStream();
    /**
     * The first {@code OpenThread} of a thread whose name starts with this waits for the first call
     * of {@link #holdUntil}, which in turn waits for the first such thread to come (so there must be one).
     */
    private String holdPrefix;
    private Op holdUntil;
    private boolean holdReleased;
    private final Set<Thread> held = new HashSet<>();
    private final Set<Thread> holding = new HashSet<>();
    /** The object the JDK's {@code ProcessImpl.create} synchronises on; here, the model's own. */
    final Object childStartMonitor = new Object();

    KernelThreads(FakeKernel kernel) {
        this.kernel = kernel;
    }

    int cpuOf(Thread t) {
        return cpu.getOrDefault(t, 0);
    }

    void pin(Thread t) {
        pinned.add(t);
    }

    void unpin(Thread t) {
        pinned.remove(t);
    }

    /** The thread moves to the other processor, unless it is pinned. */
    void migrate(Thread t) {
        if (!pinned.contains(t)) {
            cpu.put(t, 1 - cpuOf(t));
        }
    }

    void watch(Thread caller) {
        watched = caller;
    }

    boolean waitsOnLock(Thread t) {
        return lockWaiters.containsKey(t);
    }

    /**
     * Waits while {@code owner} names another thread, as NT and the C runtime wait for their locks,
     * without a timeout. The watched caller does not wait: its wait is recorded as a hang, naming
     * the lock, its holder and the call, and its call goes on as if the holder had let go.
     */
    void awaitLock(String what, Supplier<Thread> owner) {
        Thread me = Thread.currentThread();
        Thread o = owner.get();
        if (o == null || o == me) {
            return;
        }
        if (me == watched) {
            kernel.violation("hang: " + what + " on the claim's thread waits for thread " + o.getName()
                    + ", which holds it while it is blocked, for as long as that lasts");
            return;
        }
        lockWaiters.put(me, what);
        kernel.changed.signalAll();
        try {
            while ((o = owner.get()) != null && o != me) {
                kernel.changed.awaitUninterruptibly();
            }
        } finally {
            lockWaiters.remove(me);
        }
    }

    void schedule(int afterCall, Interference i) {
        interference.computeIfAbsent(afterCall, k -> new ArrayList<>()).add(i);
    }

    /**
     * What other threads do right after logged call {@code c}, on the calling thread's behalf; at the
     * first call of the hold's operation the held threads make their first handle, while the caller waits.
     */
    void afterCall(Call c) {
        List<Interference> due = interference.remove(c.index());
        if (due != null) {
            due.forEach(i -> i.run(kernel, Thread.currentThread()));
        }
        if (holdUntil != null && !holdReleased && c.op() == holdUntil) {
            while (held.isEmpty()) {
                awaitBriefly(); // the first held thread has come to its first handle: the run does not depend on when
            }
            holdReleased = true;
            kernel.changed.signalAll();
            while (!holding.isEmpty()) {
                awaitBriefly();
            }
        }
    }

    /** Thread {@code t} is inside a synchronous call on pipe end {@code f}, holding its lock. */
    void enterIo(Thread t, FakeFile f) {
        inIo.put(t, f);
    }

    void leaveIo(Thread t) {
        inIo.remove(t);
    }

    /** An application thread is about to start. */
    void started(Thread t) {
        application.add(t);
    }

    /** An application thread has ended. */
    void ended(Thread t) {
        application.remove(t);
        kernel.changed.signalAll();
    }

    /**
     * Whether {@code t} cannot go on by itself: it waits for a lock another thread holds, or for
     * data or room on the pipe whose lock it holds, and no cancel has come for it.
     */
    boolean blocked(Thread t) {
        if (lockWaiters.containsKey(t)) {
            return true;
        }
        FakeFile f = inIo.get(t);
        if (f == null || f.ioOwner != t || kernel.crt().cancelled.contains(t)) {
            return false;
        }
        return f.role == FakeFile.Role.PIPE_WRITE ? f.pipe.readers > 0 && f.pipe.free() <= 0
                : f.pipe.available() == 0 && f.pipe.writers > 0;
    }

    /** Waits until application thread {@code t} has ended or is {@link #blocked}. */
    void awaitBlockedOrEnded(Thread t) {
        while (application.contains(t) && !blocked(t)) {
            awaitBriefly(); // a thread that blocks does not signal
        }
    }

    /** Waits until every application thread has ended or is blocked. */
    void awaitApplicationThreads() {
        for (Thread t : List.copyOf(application)) {
            awaitBlockedOrEnded(t);
        }
    }

    void holdThreadHandles(String prefix, Op until) {
        holdPrefix = prefix;
        holdUntil = until;
    }

    /**
     * Before a thread's first {@code OpenThread}: a thread of the held prefix waits for the first
     * call of the hold's operation, or until the watched caller waits for something outside the
     * model (for this thread, say), so that the hold never deadlocks.
     */
    void beforeOpenThread() {
        Thread me = Thread.currentThread();
        if (holdPrefix == null || !me.getName().startsWith(holdPrefix) || !held.add(me)) {
            return;
        }
        holding.add(me);
        try {
            while (!holdReleased && !callerWaitsOutside()) {
                awaitBriefly();
            }
        } finally {
            holding.remove(me);
        }
    }

    /** Waits for a change of the model, or a moment: thread states change without signalling it. */
    private void awaitBriefly() {
        try {
            kernel.changed.await(1, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean callerWaitsOutside() {
        if (watched == null) {
            return true;
        }
        Thread.State s = watched.getState();
        return s == Thread.State.TERMINATED || ((s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING)
                && !kernel.lock.hasQueuedThread(watched) && !lockWaiters.containsKey(watched));
    }
}
