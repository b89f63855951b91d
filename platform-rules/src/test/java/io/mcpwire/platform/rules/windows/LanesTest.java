package io.mcpwire.platform.rules.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lanes ({@link Lanes}) and the child-start gate: each call that can wait runs on its lane's
 * thread with a bounded wait; a call given up on wedges its lane, and what it would still do is
 * refused, or closed again when it made a descriptor; the JDK's child-start monitor is held by a
 * gate thread from before the call until it returned or was given up on, never by the call's own.
 */
class LanesTest {
    private static final String DID_NOT_RETURN = "did not return in time: it waits for a lock that another thread or a child holds "
            + "while it blocks (the C runtime's lock of the descriptor, or its file object's); whether it took effect is not known";
    private static final String GIVEN_UP = "not made: the step it belongs to was given up on, since it waited too long for a lock "
            + "another thread holds";
    /** Longer than any machine needs to reach a state; a test that waits this long has failed. */
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final WindowsPlatform rules = w.platform();

    @Test
    void aCallThatCanWaitRunsOnItsDescriptorsLaneAndAQueryOnTheQueryLaneEachADaemon() throws Exception {
        boolean[] daemon = new boolean[2];
        w.during("_close(2)", () -> daemon[0] = Thread.currentThread().isDaemon());
        w.during("GetFileType(0x10)", () -> daemon[1] = Thread.currentThread().isDaemon());
        rules.close(2);
        rules.identity(0);
        assertEquals("mcpwire-windows-fd2", w.threadOf("_close(2)"));
        assertEquals("mcpwire-windows-query", w.threadOf("GetFileType(0x10)"));
        assertTrue(daemon[0] && daemon[1], "a lane thread never keeps the JVM alive");
    }

    @Test
    void theGateHoldsTheChildStartMonitorForTheWholeCallAndLetsGoAfter() throws Exception {
        boolean[] laneHoldsIt = new boolean[1];
        ChildStartProbe[] probe = new ChildStartProbe[1];
        w.during("_dup(0)", () -> {
            laneHoldsIt[0] = Thread.holdsLock(w.childStarts);
            probe[0] = ChildStartProbe.tryStart(w);
        });
        assertEquals(3, rules.duplicate(0));
        assertTrue(probe[0].wasKeptOut(), "no Java child starts while the duplicate is inheritable");
        assertFalse(laneHoldsIt[0], "the gate holds it, not the lane thread, which may be given up on");
        probe[0].awaitStarted();
        List<String> calls = w.calls();
        assertEquals(List.of("_dup(0)", "_get_osfhandle(3)", "SetHandleInformation(0x1000, INHERIT, 0)", "_get_osfhandle(3)",
                "child start"), calls.subList(calls.indexOf("_dup(0)"), calls.size()));
    }

    @Test
    void aChildStartInProgressEndsBeforeTheCallIsMade() throws Exception {
        CompletableFuture<Integer> duplicate;
        synchronized (w.childStarts) { // a ProcessBuilder.start() in CreateProcess
            duplicate = CompletableFuture.supplyAsync(() -> {
                try {
                    return rules.duplicate(0);
                } catch (DescriptorException e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitGateBlocked();
            w.mark("child start ends");
        }
        assertEquals(3, duplicate.get());
        List<String> calls = w.calls();
        assertTrue(calls.indexOf("child start ends") < calls.indexOf("_dup(0)"), calls.toString());
    }

    @Test
    void aCallThatWaitsTooLongIsGivenUpOnAndKeepsNoChildStartWaiting() throws Exception {
        Hold dup = w.hold("_dup(1)");
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicate(1));
        assertEquals("_dup(1) failed on fd 1: " + DID_NOT_RETURN, e.getMessage());
        assertEquals(0, e.errorCode(), "no OS error: the outcome is unknown");
        ChildStartProbe.tryStart(w).awaitStarted();
        assertTrue(w.isHeld(dup.worker()), "the child started while the call still waits");
        dup.releaseAndAwaitWorker();
    }

    @Test
    void aLaneGivenUpOnRefusesItsNextCallAtOnceUntilTheLateCallReturnsWhileTheOtherLanesGoOn() throws Exception {
        Hold dup = w.hold("_dup(1)");
        assertThrows(DescriptorException.class, () -> rules.duplicate(1));
        DescriptorException wedged = assertThrows(DescriptorException.class, () -> rules.close(1));
        assertEquals("_close(1) failed on fd 1: not made: an earlier call on fd 1 has not returned (a native thread or a child holds a "
                + "lock it needs while it blocks)", wedged.getMessage());
        assertFalse(w.calls().contains("_close(1)"), "refused, not queued behind the late call");
        rules.duplicateOnto(0, 2);
        assertEquals("mcpwire-windows-fd2", w.threadOf("_dup2(0, 2)"));

        w.forgetCalls();
        dup.releaseAndAwaitWorker();
        assertEquals(List.of("_get_osfhandle(3)", "SetHandleInformation(0x1004, INHERIT, 0)", "_close(3)"), w.calls(),
                "the duplicate made too late is closed again: the claim went on without it");
        assertEquals(Set.of(0, 1, 2), w.openDescriptors());
        rules.close(1);
        assertEquals("mcpwire-windows-fd1", w.threadOf("_close(1)"), "the lane is free once the late call returned");
    }

    @Test
    void aMoveGivenUpOnRefusesItsLateStepsOnTheDescriptorButMayCloseWhatItOpened() throws Exception {
        w.open(3, 0x40, "nul");
        Hold dup2 = w.hold("_dup2(3, 1)");
        List<String> lateSteps = new ArrayList<>();
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.moveStandard(1, () -> {
            rules.duplicateOnto(3, 1);
            for (LateStep step : List.<LateStep>of(() -> rules.duplicateOnto(3, 1), () -> rules.close(3),
                    () -> rules.rebindStandardHandle(1), () -> rules.close(1))) {
                try {
                    step.run();
                    lateSteps.add("made");
                } catch (DescriptorException refused) {
                    lateSteps.add(refused.getMessage());
                }
            }
            rules.followStartupHandle(1);
            rules.cancelStrandedReads(0, 3);
        }));
        assertEquals("moving fd 1 failed on fd 1: " + DID_NOT_RETURN, e.getMessage());
        w.forgetCalls();
        dup2.releaseAndAwaitWorker();
        assertEquals(List.of("_close(3)", "SetThreadAffinityMask(0xff)"), w.calls(),
                "no slot, no start-up value, no cancel: they would undo what the claim did since");
        assertEquals(List.of("_dup2(3, 1) failed on fd 1: " + GIVEN_UP, "made", "SetStdHandle(STD_OUTPUT_HANDLE) failed on fd 1: "
                + GIVEN_UP, "_close(1) failed on fd 1: " + GIVEN_UP), lateSteps);
    }

    @Test
    void aCallOnItsOwnLaneRunsInPlaceEvenWithTheGateHeld() {
        Lanes lanes = new Lanes(w.patience());
        Object monitor = new Object();
        String[] inner = new String[1];
        assertTimeoutPreemptively(BOUND, () -> lanes.run(0, "outer", 0, monitor, () -> lanes.run(0, "inner", 0, monitor, () -> {
            inner[0] = Thread.currentThread().getName();
            return null;
        })), "a second gate would wait for the first");
        assertEquals("mcpwire-windows-fd0", inner[0]);
    }

    @Test
    void whatTheCallThrowsReachesTheCallerAsIs() {
        Lanes lanes = new Lanes(w.patience());
        DescriptorException failure = new DescriptorException("_close(0)", 0, 9, "EBADF");
        assertSame(failure, assertThrows(DescriptorException.class, () -> lanes.run(0, "_close(0)", 0, () -> {
            throw failure;
        })));
        IllegalStateException bug = new IllegalStateException("a bug in a step");
        assertSame(bug, assertThrows(IllegalStateException.class, () -> lanes.run(0, "_close(0)", 0, () -> {
            throw bug;
        })));
    }

    @Test
    void anInterruptedWaitIsFinishedAndTheInterruptKept() throws Exception {
        boolean[] interruptedOnce = {false};
        Lanes lanes = new Lanes(call -> {
            if (!interruptedOnce[0]) {
                interruptedOnce[0] = true;
                throw new InterruptedException();
            }
            return call.awaitReturn(Duration.ofSeconds(30).toNanos());
        });
        assertEquals(42, lanes.run(0, "a call", 0, () -> 42));
        assertTrue(Thread.interrupted(), "said after the bounded wait");
    }

    @Test
    void aLaneThreadThatWaitsForTheNextCallServesItAndCarriesNoInterruptOver() throws Exception {
        Lanes lanes = new Lanes(call -> call.awaitReturn(BOUND.toNanos()));
        Thread first = lanes.run(0, "a call", 0, () -> {
            Thread.currentThread().interrupt(); // as a call's own code might leave it
            return Thread.currentThread();
        });
        Set<Thread> waiting = awaitIdle(first);
        boolean[] interrupted = new boolean[1];
        Thread second = lanes.run(0, "the next call", 0, () -> {
            interrupted[0] = Thread.currentThread().isInterrupted();
            return Thread.currentThread();
        });
        assertTrue(waiting.contains(second), "no thread started for the next call of the lane: " + second + " was not waiting");
        assertFalse(interrupted[0], "no interrupt carried over");
    }

    @Test
    void aCallWhoseLaneThreadIsBusyElsewhereGetsAThreadOfItsOwnAtOnce() throws Exception {
        Lanes one = new Lanes(call -> call.awaitReturn(BOUND.toNanos()));
        Lanes other = new Lanes(call -> call.awaitReturn(BOUND.toNanos()));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Thread> busy = CompletableFuture.supplyAsync(() -> {
            try {
                return one.run(0, "a call that blocks", 0, () -> {
                    running.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    return Thread.currentThread();
                });
            } catch (DescriptorException e) {
                throw new AssertionError(e);
            }
        });
        assertTrue(running.await(BOUND.toSeconds(), TimeUnit.SECONDS));
        Thread[] second = new Thread[1];
        assertTimeoutPreemptively(BOUND, () -> second[0] = other.run(0, "a call of the same lane", 0, Thread::currentThread),
                "it does not wait for the busy thread");
        release.countDown();
        Thread first = busy.get();
        assertNotSame(first, second[0], "each on a thread of its own");
        assertEquals("mcpwire-windows-fd0", second[0].getName());
    }

    /**
     * Waits until {@code t} waits for the next call of its kind, or has ended because another of its
     * kind waits already; returns the threads of its kind that wait then. Fails when it does neither.
     */
    private static Set<Thread> awaitIdle(Thread t) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (t.getState() != Thread.State.TIMED_WAITING && t.isAlive()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(t.getName() + " never waited for the next call (" + t.getState() + ")");
            }
            Thread.yield();
        }
        Set<Thread> waiting = new HashSet<>();
        for (Thread other : Thread.getAllStackTraces().keySet()) {
            if (other.getName().equals(t.getName()) && other.getState() == Thread.State.TIMED_WAITING) {
                waiting.add(other);
            }
        }
        assertFalse(waiting.isEmpty(), "a thread of the lane waits for its next call");
        return waiting;
    }

    /** A step of a move, which may be refused. */
    @FunctionalInterface
    private interface LateStep {
        void run() throws DescriptorException;
    }

    /** Waits until the gate thread is waiting for the child-start monitor; fails at once if the call is made before. */
    private void awaitGateBlocked() {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (Thread.getAllStackTraces().keySet().stream().noneMatch(
                t -> t.getName().equals("mcpwire-windows-child-start-gate") && t.getState() == Thread.State.BLOCKED)) {
            if (w.calls().contains("_dup(0)")) {
                throw new AssertionError("_dup(0) was made while a child start held the monitor");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the gate never waited for the monitor");
            }
            Thread.yield();
        }
    }
}
