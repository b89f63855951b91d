package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The host watch's rule over an ancestry of real processes: a watched process that ends after the
 * client spoke ends the session; one that ends before is a launcher, passed over, and the ancestry
 * is read again without it.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the watched processes are POSIX sleeps")
class HostWatcherTest {
    private static Process sleeper() throws Exception {
        return new ProcessBuilder("sleep", "60").start();
    }

    @Test
    void aWatchedProcessThatEndsAfterTheClientSpokeEndsTheSession() throws Exception {
        Process host = sleeper();
        CountDownLatch ended = new CountDownLatch(1);
        HostWatcher w = HostWatcher.watching(passedOver -> List.of(host.toHandle()), ProcessHandle::isAlive, () -> true, ended::countDown);
        w.start();
        try {
            host.destroy();
            host.waitFor();
            assertTrue(ended.await(10, TimeUnit.SECONDS), "the host's end ended the session");
        } finally {
            w.stop();
        }
    }

    @Test
    void aLauncherThatEndsBeforeTheClientSpokeIsPassedOverAndTheHostAboveItStillWatched() throws Exception {
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
        }, ProcessHandle::isAlive, clientSpoke::get, ended::countDown);
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
}
