package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The host watch's rule over an ancestry of real processes, polling and waiting for exits: a
 * watched process that ends after the client spoke ends the session; one that ends before is a
 * launcher, passed over, and the ancestry is read again without it. A wait the system refuses
 * leaves the watch polling; a stop wakes a pending wait.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the watched processes are POSIX sleeps")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostWatcherTest {

    /** A session whose client spoke when {@code spoke} says, and whose end runs {@code onExit}. */
    private static HostWatcher.Session session(java.util.function.BooleanSupplier spoke, Runnable onExit) {
        return new HostWatcher.Session() {
            @Override
            public boolean clientSpoke() {
                return spoke.getAsBoolean();
            }

            @Override
            public void hostExited() {
                onExit.run();
            }
        };
    }

    private static Process sleeper() throws Exception {
        return new ProcessBuilder("sleep", "60").start();
    }

    /** The two ways of watching: polling, and a wait for exits (the JDK's own, standing in for a provider's). */
    static List<Optional<ProcessExits>> ways() {
        return List.of(Optional.empty(), Optional.of(new OnExitWaits()));
    }

    /**
     * Waits through {@link ProcessHandle#onExit()}, prompt for this JVM's children, which the
     * tests' processes are; counts the waits opened and the wakes.
     */
    static final class OnExitWaits implements ProcessExits {
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger woken = new AtomicInteger();

        @Override
        public Wait watch(long... pids) {
            opened.incrementAndGet();
            CompletableFuture<Long> first = new CompletableFuture<>();
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresentOrElse(p -> p.onExit().thenRun(() -> first.complete(pid)),
                        () -> first.complete(pid));
            }
            return new Wait() {
                @Override
                public OptionalLong await() {
                    long pid = first.join();
                    return pid < 0 ? OptionalLong.empty() : OptionalLong.of(pid);
                }

                @Override
                public void wake() {
                    woken.incrementAndGet();
                    first.complete(-1L);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @ParameterizedTest
    @MethodSource("ways")
    void aWatchedProcessThatEndsAfterTheClientSpokeEndsTheSession(Optional<ProcessExits> way) throws Exception {
        Process host = sleeper();
        CountDownLatch ended = new CountDownLatch(1);
        HostWatcher w = HostWatcher.watching(passedOver -> List.of(host.toHandle()), ProcessHandle::isAlive, way,
                session(() -> true, ended::countDown));
        w.start();
        try {
            host.destroy();
            host.waitFor();
            assertTrue(ended.await(10, TimeUnit.SECONDS), "the host's end ended the session");
        } finally {
            w.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("ways")
    void aLauncherThatEndsBeforeTheClientSpokeIsPassedOverAndTheHostAboveItStillWatched(Optional<ProcessExits> way) throws Exception {
        Process launcher = sleeper();
        Process host = sleeper();
        AtomicBoolean clientSpoke = new AtomicBoolean();
        List<Set<Long>> asked = new CopyOnWriteArrayList<>();
        CountDownLatch readAgain = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        HostWatcher w = HostWatcher.watching(passedOver -> {
            asked.add(Set.copyOf(passedOver));
            if (passedOver.contains(launcher.pid())) {
                readAgain.countDown();
                return List.of(host.toHandle()); // re-read without the launcher: the host above it
            }
            return List.of(launcher.toHandle(), host.toHandle());
        }, ProcessHandle::isAlive, way, session(clientSpoke::get, ended::countDown));
        w.start();
        try {
            launcher.destroy();
            launcher.waitFor();
            assertTrue(readAgain.await(10, TimeUnit.SECONDS), "the launcher was passed over and the ancestry read again");
            assertEquals(Set.of(launcher.pid()), asked.get(asked.size() - 1));
            assertFalse(ended.await(0, TimeUnit.SECONDS), "the launcher's end did not end the session");
            clientSpoke.set(true);
            host.destroy();
            host.waitFor();
            assertTrue(ended.await(10, TimeUnit.SECONDS), "the host's end, after the client spoke, did");
        } finally {
            w.stop();
            launcher.destroyForcibly();
            host.destroyForcibly();
        }
    }

    private static Set<Thread> watchThreads() {
        Set<Thread> found = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("mcpwire-stdio-host-watch")) {
                found.add(t);
            }
        }
        return found;
    }

    @Test
    void aWaitTheSystemRefusesLeavesTheWatchPolling() throws Exception {
        Process host = sleeper();
        AtomicInteger refused = new AtomicInteger();
        ProcessExits refusing = pids -> {
            refused.incrementAndGet();
            throw new DescriptorException("pidfd_open(" + pids[0] + ")", -1, 38, "ENOSYS (scripted)");
        };
        CountDownLatch ended = new CountDownLatch(1);
        HostWatcher w = HostWatcher.watching(passedOver -> List.of(host.toHandle()), ProcessHandle::isAlive, Optional.of(refusing),
                session(() -> true, ended::countDown));
        w.start();
        try {
            host.destroy();
            host.waitFor();
            assertTrue(ended.await(10, TimeUnit.SECONDS), "the host's end was seen by polling");
            assertEquals(1, refused.get(), "the wait was asked for once, then the watch polled");
        } finally {
            w.stop();
        }
    }

    /** A wait that only a wake ends, as a system's wait opened after the process had gone (its id reused, say) never fires. */
    static final class SilentWaits implements ProcessExits {
        @Override
        public Wait watch(long... pids) {
            CompletableFuture<Void> woken = new CompletableFuture<>();
            return new Wait() {
                @Override
                public OptionalLong await() {
                    woken.join();
                    return OptionalLong.empty();
                }

                @Override
                public void wake() {
                    woken.complete(null);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @Test
    void aProcessThatEndedBeforeTheWaitOpenedIsSeenByItsHandle() throws Exception {
        Process host = sleeper();
        host.destroy();
        host.waitFor();
        CountDownLatch ended = new CountDownLatch(1);
        // the ancestry read it alive; by the wait's opening it has gone, and the wait will never fire
        HostWatcher w = HostWatcher.watching(passedOver -> List.of(host.toHandle()), ProcessHandle::isAlive,
                Optional.of(new SilentWaits()), session(() -> true, ended::countDown));
        w.start();
        try {
            assertTrue(ended.await(10, TimeUnit.SECONDS), "an end before the wait is not missed");
        } finally {
            w.stop();
        }
    }

    @Test
    void aStopWakesThePendingWaitAndTheThreadLeaves() throws Exception {
        Process host = sleeper();
        OnExitWaits waits = new OnExitWaits();
        CountDownLatch ended = new CountDownLatch(1);
        HostWatcher w = HostWatcher.watching(passedOver -> List.of(host.toHandle()), ProcessHandle::isAlive, Optional.of(waits),
                session(() -> true, ended::countDown));
        Set<Thread> before = watchThreads();
        try {
            w.start();
            Set<Thread> started = watchThreads();
            started.removeAll(before);
            assertEquals(1, started.size(), "one watching thread started");
            Thread watching = started.iterator().next();
            while (waits.opened.get() == 0 || watching.getState() != Thread.State.WAITING) {
                Thread.onSpinWait(); // until the thread is parked in the wait it opened
            }
            w.stop();
            assertEquals(1, waits.woken.get(), "the stop woke the pending wait");
            assertFalse(watching.isAlive(), "the watching thread left once stopped, the host still running");
            assertEquals(1, ended.getCount(), "a stop is not the host's end");
        } finally {
            host.destroyForcibly();
        }
    }
}
