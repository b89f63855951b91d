package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pipelined throughput: a batch of {@code tools/call echo} with a 1 KiB argument ({@link
 * Payload#PLAIN}) written as fast as the server reads it, in a fresh process, then a second batch
 * in the same process (warm), then a third there with {@link Payload#MIXED} (warm, mixed text). A
 * batch runs only after the one before it succeeded. Every answer is kept and, once the clock has
 * stopped, parsed and checked against its request. A batch whose output ended early is {@code
 * crashed after N}, one that went quiet for the stall limit is {@code stalled after N}, one with an
 * answer that is not right is {@code N wrong}; none of them has a rate. A peer whose batch stalled
 * once is not asked for it again: a stall costs the limit and tells nothing new.
 */
final class Throughput {
    /** The batches of one process, in order: what each measures and the text it sends. */
    private static final List<Map.Entry<Metric, Payload>> BATCHES = List.of(Map.entry(Metric.FRESH, Payload.PLAIN),
            Map.entry(Metric.WARM, Payload.PLAIN), Map.entry(Metric.WARM_MIXED, Payload.MIXED));

    private final Sessions sessions;
    private final Measurements results;
    private final int calls;
    private final boolean threadCpu;
    private final Set<String> stalled = new HashSet<>();

    Throughput(Sessions sessions, Measurements results, int calls, boolean threadCpu) {
        this.sessions = sessions;
        this.results = results;
        this.calls = calls;
        this.threadCpu = threadCpu;
    }

    void run(Peer peer, int round) throws Exception {
        if (skipped(peer, Metric.FRESH, round)) {
            BATCHES.stream().skip(1).forEach(b -> skipped(peer, b.getKey(), round));
            return;
        }
        Optional<PeerProcess> opened = sessions.open(peer, round, BATCHES.stream().map(Map.Entry::getKey).toArray(Metric[]::new));
        if (opened.isEmpty()) {
            return;
        }
        try (PeerProcess proc = opened.get()) {
            long firstId = 1;
            Metric failed = null;
            for (Map.Entry<Metric, Payload> b : BATCHES) {
                Metric metric = b.getKey();
                if (failed != null) {
                    // not an incident of its own: the failed batch's is the one
                    String after = failed == Metric.FRESH ? "a fresh batch" : "a warm batch";
                    results.put(metric, peer.name(), round, new Sample.Failed(new Failure.NoFigure("after " + after + " that failed")));
                } else if (skipped(peer, metric, round) || !batch(peer, proc, firstId, metric, b.getValue(), round)) {
                    failed = metric;
                }
                firstId += calls;
            }
        }
    }

    /** Whether {@code peer} stalled in this batch in an earlier round; then the round records why there is no figure. */
    private boolean skipped(Peer peer, Metric metric, int round) {
        if (!stalled.contains(peer.name() + " " + metric.name())) {
            return false;
        }
        results.failed(metric, peer, round, new Failure.NoFigure("not run again after its stall"));
        return true;
    }

    /** One batch; true when every request was answered, rightly. */
    private boolean batch(Peer peer, PeerProcess proc, long firstId, Metric metric, Payload payload, int round) throws Exception {
        Requests.EchoCall call = Requests.to(peer).echo(payload);
        Thread writer = new Thread(() -> {
            try {
                OutputStream in = proc.input();
                byte[] head = call.head();
                byte[] tail = call.tail();
                for (long id = firstId; id < firstId + calls; id++) {
                    in.write(head);
                    in.write(Requests.ascii(Long.toString(id)));
                    in.write(tail);
                }
                in.flush();
            } catch (IOException e) {
                // the server has gone; the reader sees it
            }
        }, "bench-writer");
        AnswerLog log = new AnswerLog();
        ThreadCpu.Span cpu = threadCpu ? ThreadCpu.start(proc.pid()) : ThreadCpu.Span.NONE;
        long t0 = System.nanoTime();
        writer.start();
        long last = t0;
        int lines = 0;
        while (lines < calls && proc.readLine(log)) {
            lines++;
            last = System.nanoTime();
        }
        writer.join(10_000);
        cpu.end((thread, seconds) -> results.value(Metric.rate(metric.name() + " CPU s, " + thread), peer, round, seconds));
        Tally tally = Tally.of(log, firstId, calls, call.expected());
        results.tally(peer, tally);
        if (lines < calls) {
            Failure f = proc.stalled() ? new Failure.Stalled(lines, PeerProcess.STALL_SECONDS) : new Failure.Crashed(lines);
            if (proc.stalled()) {
                stalled.add(peer.name() + " " + metric.name());
            }
            results.failed(metric, peer, round, f);
            return false;
        }
        if (!tally.allRight(calls)) {
            results.failed(metric, peer, round, new Failure.WrongAnswers(tally.notRight() + tally.missing()));
            return false;
        }
        results.value(metric, peer, round, calls / ((last - t0) / 1e9));
        return true;
    }
}
