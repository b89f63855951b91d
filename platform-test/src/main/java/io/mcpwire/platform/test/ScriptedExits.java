package io.mcpwire.platform.test;

import io.mcpwire.platform.ProcessExits;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * A wait for processes' exits that the test ends ({@link FakeProcess#endWatchedProcesses()}): from
 * then on every wait, open or opened later, names the first process it watches. Real processes
 * are never looked at, so that a host's exit is a step of the test's own.
 */
final class ScriptedExits implements ProcessExits {
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    /** The watched processes end now. */
    void end() {
        ended.complete(null);
    }

    @Override
    public Wait watch(long... pids) {
        if (pids.length == 0) {
            throw new IllegalArgumentException("a wait on no process");
        }
        CompletableFuture<Void> woken = new CompletableFuture<>();
        return new Wait() {
            @Override
            public OptionalLong await() {
                CompletableFuture.anyOf(ended, woken).join();
                return woken.isDone() ? OptionalLong.empty() : OptionalLong.of(pids[0]);
            }

            @Override
            public void wake() {
                woken.complete(null);
            }

            @Override
            public void close() {
            }

            @Override
            public String toString() {
                return "the fake's scripted wait";
            }
        };
    }

    @Override
    public String toString() {
        return "the fake's scripted wait";
    }
}
