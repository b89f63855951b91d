package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.io.IOException;
import java.util.Optional;

/**
 * Latency under a steady load, as an agent host drives a busy server: {@code tools/call echo}
 * (1 KiB, {@link Payload#PLAIN}) sent on a fixed schedule at each rate of {@link
 * Metric#OPEN_LOOP_RATES}, lowest first, with up to {@value PacedWindow#IN_FLIGHT} calls in flight,
 * in one process after a warm-up at the highest rate (see {@link PacedWindow} for how latency is
 * taken); beside each rate's latencies, the sender's own lateness. A rate that a server cannot keep
 * is {@code saturated} there and at every higher rate; a server that ended or went quiet has no
 * figure at that rate or any after it.
 */
final class OpenLoop {
    private final Sessions sessions;
    private final Measurements results;
    private final double warmUpSeconds;
    private final double leadInSeconds;
    private final double measureSeconds;

    OpenLoop(Sessions sessions, Measurements results, double measureSeconds) {
        this.sessions = sessions;
        this.results = results;
        this.measureSeconds = measureSeconds;
        this.warmUpSeconds = Math.max(1, measureSeconds / 2);
        this.leadInSeconds = Math.max(0.5, measureSeconds / 4);
    }

    /** Every figure the open loop gives: each percentile at each rate. */
    static Metric[] openLoopMetrics() {
        return Metric.OPEN_LOOP_RATES.stream()
                .flatMap(rate -> Metric.OPEN_LOOP_PERCENTILES.stream().map(percentile -> Metric.openLoop(rate, percentile)))
                .toArray(Metric[]::new);
    }

    void run(Peer peer, int round) throws IOException, InterruptedException {
        Optional<PeerProcess> opened = sessions.open(peer, round, openLoopMetrics());
        if (opened.isEmpty()) {
            return;
        }
        try (PeerProcess proc = opened.get()) {
            Requests.EchoCall call = Requests.to(peer).echo(Payload.PLAIN);
            PacedWindow.Answers answers = PacedWindow.readAnswers(proc);
            int highest = Metric.OPEN_LOOP_RATES.get(Metric.OPEN_LOOP_RATES.size() - 1);
            PacedWindow warmUp = new PacedWindow(proc, answers, call, 1, highest, warmUpSeconds, warmUpSeconds);
            Optional<Failure> failed = warmUp.run();
            long nextId = 1 + warmUp.count();
            results.tally(peer, warmUp.tally());
            if (failed.isPresent() && failed.get() instanceof Failure.Saturated) {
                failed = Optional.empty(); // a warm-up that could not keep the highest rate still warmed the server up
            }
            for (int rate : Metric.OPEN_LOOP_RATES) {
                if (failed.isEmpty()) {
                    PacedWindow w = new PacedWindow(proc, answers, call, nextId, rate, leadInSeconds + measureSeconds, leadInSeconds);
                    failed = w.run();
                    nextId += w.count();
                    results.tally(peer, w.tally());
                    if (failed.isEmpty()) {
                        for (double percentile : Metric.OPEN_LOOP_PERCENTILES) {
                            results.value(Metric.openLoop(rate, percentile), peer, round, w.latencyNanos(percentile) / 1e3);
                        }
                        for (double percentile : Metric.SENDER_LATE_PERCENTILES) {
                            results.value(Metric.senderLate(rate, percentile), peer, round, w.senderLateNanos(percentile) / 1e3);
                        }
                        continue;
                    }
                }
                results.failed(Metric.openLoop(rate, 50), peer, round, failed.get()); // one incident for the rate
                for (double percentile : Metric.OPEN_LOOP_PERCENTILES) {
                    results.put(Metric.openLoop(rate, percentile), peer.name(), round, new Sample.Failed(failed.get()));
                }
            }
        }
    }
}
