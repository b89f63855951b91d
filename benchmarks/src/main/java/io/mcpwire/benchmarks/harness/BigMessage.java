package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.util.Optional;

/**
 * One large message, in a fresh process settled as {@link Idle} leaves it: one 8 MiB
 * {@code tools/call echo}, checked whole, its round trip and the server's peak resident memory
 * above what it held just before (Linux: {@code VmHWM} after resetting it through
 * {@code /proc/PID/clear_refs}).
 */
final class BigMessage {
    private static final int MIB8 = 8 * 1024 * 1024;

    private final Sessions sessions;
    private final Measurements results;

    BigMessage(Sessions sessions, Measurements results) {
        this.sessions = sessions;
        this.results = results;
    }

    void run(Peer peer, int round) throws Exception {
        Optional<PeerProcess> opened = sessions.open(peer, round, Metric.BIG_ROUND_TRIP, Metric.BIG_PEAK);
        if (opened.isEmpty()) {
            return;
        }
        Requests requests = Requests.to(peer);
        try (PeerProcess proc = opened.get()) {
            int crashedAt = Idle.settle(peer, proc);
            if (crashedAt >= 0) {
                results.failed(Metric.BIG_ROUND_TRIP, peer, round, new Failure.Crashed(crashedAt));
                results.put(Metric.BIG_PEAK, peer.name(), round, new Sample.Failed(new Failure.Crashed(crashedAt)));
                return;
            }
            long idle = proc.statusKib("VmRSS");
            proc.resetPeak();
            Requests.EchoCall call = requests.echo("b".repeat(MIB8));
            byte[] request = call.line(7);
            long t0 = System.nanoTime();
            proc.send(request);
            byte[] answer = proc.readLine();
            long t1 = System.nanoTime();
            AnswerCheck.Checked c = answer == null ? null : AnswerCheck.check(answer, call.expected());
            if (c == null || c.id() != 7 || c.verdict() != AnswerCheck.Verdict.RIGHT) {
                Failure f = answer == null ? new Failure.Crashed(0) : new Failure.WrongAnswers(1);
                results.failed(Metric.BIG_ROUND_TRIP, peer, round, f);
                results.put(Metric.BIG_PEAK, peer.name(), round, new Sample.Failed(f));
                results.tally(peer, new Tally(answer == null ? 0 : 1, 0, 0, answer == null ? 0 : 1, answer == null ? 1 : 0, 0, 0,
                        answer == null ? "" : Tally.sample(answer, 0, answer.length)));
                return;
            }
            results.tally(peer, Tally.ofRight(1));
            results.value(Metric.BIG_ROUND_TRIP, peer, round, (t1 - t0) / 1e6);
            long peak = proc.statusKib("VmHWM");
            if (idle > 0 && peak > 0) {
                results.value(Metric.BIG_PEAK, peer, round, Math.max(0, peak - idle) / 1024.0);
            }
        }
    }
}
