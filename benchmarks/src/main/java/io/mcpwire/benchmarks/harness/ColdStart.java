package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import io.mcpwire.benchmarks.harness.StartupAids.Aid;
import java.io.IOException;

/**
 * Cold start: from the process's spawn to the right answer to its opening request
 * ({@code initialize}, or {@code server/discover} in the 2026-07-28 era), with and without the
 * start-up aid. The process is killed once the answer is in.
 */
final class ColdStart {
    private final Sessions sessions;
    private final Measurements results;

    ColdStart(Sessions sessions, Measurements results) {
        this.sessions = sessions;
        this.results = results;
    }

    static Metric metric(Aid aid) {
        return aid == Aid.NONE ? Metric.COLD_NONE : Metric.COLD_AID;
    }

    void run(Peer peer, Aid aid, int round) throws IOException {
        Requests requests = Requests.to(peer);
        long t0 = System.nanoTime();
        PeerProcess proc = sessions.start(peer, aid);
        proc.send(requests.opening());
        byte[] answer = proc.readLine();
        long t1 = System.nanoTime();
        proc.kill();
        if (answer == null) {
            results.failed(metric(aid), peer, round, new Failure.NoFigure("no answer to its opening"));
        } else if (AnswerCheck.check(answer, requests.openingAnswer()).verdict() != AnswerCheck.Verdict.RIGHT) {
            results.failed(metric(aid), peer, round, new Failure.WrongAnswers(1));
        } else {
            results.value(metric(aid), peer, round, (t1 - t0) / 1e6);
        }
    }
}
