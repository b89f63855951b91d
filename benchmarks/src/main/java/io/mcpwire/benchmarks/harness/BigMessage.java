package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.util.Optional;

/**
 * The idle server and one large message, in one fresh process: after five round trips and 1.5 s of
 * quiet, how often its threads wake (Linux: {@code voluntary_ctxt_switches} of every thread, summed,
 * over 2 s) and its resident memory; then one 8 MiB {@code tools/call echo}, checked whole, its
 * round trip and the server's peak resident memory above the idle figure (Linux: {@code VmHWM}
 * after resetting it through {@code /proc/PID/clear_refs}).
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
        Optional<PeerProcess> opened = sessions.open(peer, round, Metric.IDLE_RSS, Metric.IDLE_WAKEUPS, Metric.BIG_ROUND_TRIP, Metric.BIG_PEAK);
        if (opened.isEmpty()) {
            return;
        }
        Requests requests = Requests.to(peer);
        try (PeerProcess proc = opened.get()) {
            for (int i = 0; i < 5; i++) { // a few round trips, as a host's session begins
                proc.send(requests.roundTrip(100 + i));
                if (proc.readLine() == null) {
                    results.failed(Metric.IDLE_RSS, peer, round, new Failure.Crashed(i));
                    return;
                }
            }
            Thread.sleep(1_500); // settle, past the second after which mcpwire's reader thread rests
            idleWakeups(peer, proc, round);
            long idle = proc.statusKib("VmRSS");
            if (idle > 0) {
                results.value(Metric.IDLE_RSS, peer, round, idle / 1024.0);
            }
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

    private void idleWakeups(Peer peer, PeerProcess proc, int round) throws InterruptedException {
        long before = ThreadCpu.voluntarySwitches(proc.pid());
        long t0 = System.nanoTime();
        Thread.sleep(2_000); // the window measured, not a wait for anything
        long after = ThreadCpu.voluntarySwitches(proc.pid());
        if (before >= 0 && after >= before) {
            results.value(Metric.IDLE_WAKEUPS, peer, round, (after - before) / ((System.nanoTime() - t0) / 1e9));
        }
    }
}
