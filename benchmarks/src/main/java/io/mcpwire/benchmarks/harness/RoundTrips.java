package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Closed-loop latency: sequential round trips ({@code ping}, or {@code server/discover} in the
 * 2026-07-28 era) in a fresh process, each answer checked; the first half warms the JIT up and only
 * the second half is measured, so that the median is not the compiler's warm-up.
 */
final class RoundTrips {
    private final Sessions sessions;
    private final Measurements results;
    private final int count;

    RoundTrips(Sessions sessions, Measurements results, int count) {
        this.sessions = sessions;
        this.results = results;
        this.count = count;
    }

    void run(Peer peer, int round) throws IOException {
        Optional<PeerProcess> opened = sessions.open(peer, round, Metric.PING_P50, Metric.PING_P99);
        if (opened.isEmpty()) {
            return;
        }
        Requests requests = Requests.to(peer);
        Expected expected = requests.roundTripAnswer();
        int warmUp = count / 2;
        long[] rtt = new long[count - warmUp];
        long right = 0;
        try (PeerProcess proc = opened.get()) {
            for (int i = 0; i < count; i++) {
                byte[] request = requests.roundTrip(i + 1);
                long t0 = System.nanoTime();
                proc.send(request);
                byte[] answer = proc.readLine();
                long t1 = System.nanoTime();
                AnswerCheck.Checked c = answer == null ? null : AnswerCheck.check(answer, expected);
                if (c == null || c.id() != i + 1 || c.verdict() != AnswerCheck.Verdict.RIGHT) {
                    Failure f = answer == null ? new Failure.Crashed(i) : new Failure.WrongAnswers(1);
                    results.failed(Metric.PING_P50, peer, round, f);
                    results.failed(Metric.PING_P99, peer, round, f);
                    results.tally(peer, new Tally(i + (answer == null ? 0 : 1), right, 0, answer == null ? 0 : 1,
                            answer == null ? count - i : count - i - 1, 0, 0, answer == null ? "" : Tally.sample(answer, 0, answer.length)));
                    return;
                }
                right++;
                if (i >= warmUp) {
                    rtt[i - warmUp] = t1 - t0;
                }
            }
        }
        results.tally(peer, Tally.ofRight(count));
        Arrays.sort(rtt);
        results.value(Metric.PING_P50, peer, round, rtt[rtt.length / 2] / 1e3);
        results.value(Metric.PING_P99, peer, round, rtt[(int) (rtt.length * 0.99)] / 1e3);
    }
}
