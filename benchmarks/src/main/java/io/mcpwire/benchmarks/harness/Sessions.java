package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import io.mcpwire.benchmarks.harness.StartupAids.Aid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** Starts peers and opens their sessions, the same way for every measurement. */
final class Sessions {
    private final Path root;
    private final StartupAids aids;
    private final Measurements results;

    Sessions(Path root, StartupAids aids, Measurements results) {
        this.root = root;
        this.aids = aids;
        this.results = results;
    }

    /** The peer's process, started with its aid when it has one. */
    PeerProcess start(Peer peer, Aid aid) throws IOException {
        return new PeerProcess(aids.command(peer, aid), root);
    }

    /** The peer's process, started with {@code aid}, its stderr a pipe that a thread reads to its end. */
    PeerProcess startReadingStderr(Peer peer, Aid aid) throws IOException {
        return new PeerProcess(aids.command(peer, aid), root, true);
    }

    /**
     * The peer started with its aid and its session opened: the opening answered rightly, then what
     * the era sends after it. Empty when that failed, recorded against each of {@code metrics} in
     * {@code round} (one incident for them all).
     */
    Optional<PeerProcess> open(Peer peer, int round, Metric... metrics) throws IOException {
        PeerProcess proc = start(peer, Aid.ARCHIVE);
        Requests requests = Requests.to(peer);
        proc.send(requests.opening());
        byte[] answer = proc.readLine();
        if (answer == null || AnswerCheck.check(answer, requests.openingAnswer()).verdict() != AnswerCheck.Verdict.RIGHT) {
            proc.close();
            Failure failure = new Failure.NoFigure(answer == null ? "no answer to its opening" : "a wrong opening answer");
            results.failed(metrics[0], peer, round, failure);
            for (Metric m : metrics) {
                results.put(m, peer.name(), round, new Sample.Failed(failure));
            }
            return Optional.empty();
        }
        byte[] after = requests.afterOpening();
        if (after.length > 0) {
            proc.send(after);
        }
        return Optional.of(proc);
    }
}
