package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.io.IOException;
import java.util.Optional;

/**
 * The idle server, in a fresh process, as a host's session leaves it between calls: after five
 * round trips and 1.5 s of quiet, how often its threads wake (Linux: {@code voluntary_ctxt_switches}
 * of every thread, summed, over 2 s) and its resident memory. A phase of its own, with as many
 * rounds as the others, so that its pairs' ratios have intervals: a JVM's resident memory at that
 * point varies by some megabytes from start to start (the JIT's arenas, which the C library keeps
 * once freed, and the young generation's regions touched so far).
 */
final class Idle {
    /** How long the server is left alone before it is measured: past the second after which mcpwire's reader thread rests. */
    static final long SETTLE_MILLIS = 1_500;

    private final Sessions sessions;
    private final Measurements results;

    Idle(Sessions sessions, Measurements results) {
        this.sessions = sessions;
        this.results = results;
    }

    void run(Peer peer, int round) throws Exception {
        Optional<PeerProcess> opened = sessions.open(peer, round, Metric.IDLE_RSS, Metric.IDLE_WAKEUPS);
        if (opened.isEmpty()) {
            return;
        }
        try (PeerProcess proc = opened.get()) {
            int crashedAt = settle(peer, proc);
            if (crashedAt >= 0) {
                results.failed(Metric.IDLE_RSS, peer, round, new Failure.Crashed(crashedAt));
                results.put(Metric.IDLE_WAKEUPS, peer.name(), round, new Sample.Failed(new Failure.Crashed(crashedAt)));
                return;
            }
            long before = ThreadCpu.voluntarySwitches(proc.pid());
            long t0 = System.nanoTime();
            Thread.sleep(2_000); // the window measured, not a wait for anything
            long after = ThreadCpu.voluntarySwitches(proc.pid());
            if (before >= 0 && after >= before) {
                results.value(Metric.IDLE_WAKEUPS, peer, round, (after - before) / ((System.nanoTime() - t0) / 1e9));
            }
            long rss = proc.statusKib("VmRSS");
            if (rss > 0) {
                results.value(Metric.IDLE_RSS, peer, round, rss / 1024.0);
            }
        }
    }

    /**
     * Five round trips, as a host's session begins, then {@link #SETTLE_MILLIS} of quiet.
     *
     * @return -1, or the round trip after which the server gave no answer
     */
    static int settle(Peer peer, PeerProcess proc) throws IOException, InterruptedException {
        Requests requests = Requests.to(peer);
        for (int i = 0; i < 5; i++) {
            proc.send(requests.roundTrip(100 + i));
            if (proc.readLine() == null) {
                return i;
            }
        }
        Thread.sleep(SETTLE_MILLIS);
        return -1;
    }
}
