package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.StartupAids.Aid;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The end-to-end comparison: each server runs as its own process driven over pipes, every answer
 * is checked, and in every round the peers run in an order shuffled anew, so that the machine's
 * drift falls on all of them alike and on no one peer's turn. Prints, on stdout: the header (each
 * runtime and library version, the aids, the sizes), the peers, the medians, the open-loop
 * latencies and the sender's lateness, the answers checked, the headline pairs with their
 * intervals, the floors, the {@code summary:} lines and the per-round figures behind them; progress
 * goes to stderr. Started by {@code benchmarks/run} (options in
 * {@link RunOptions}).
 */
public final class Harness {
    /** Bootstrap resamples per interval. */
    private static final int RESAMPLES = 10_000;

    private final RunOptions options;
    private final List<Peer> peers;
    private final StartupAids aids;
    private final Measurements results = new Measurements();
    private final Sessions sessions;
    private final Random order;
    private final long began = System.nanoTime();

    private Harness(RunOptions options, Path root, List<Peer> peers, StartupAids aids) {
        this.options = options;
        this.peers = peers;
        this.aids = aids;
        this.sessions = new Sessions(root, aids, results);
        this.order = new Random(options.seed());
    }

    public static void main(String[] args) throws Exception {
        RunOptions options = RunOptions.parse(args);
        Path root = Path.of(System.getProperty("mcpwire.root", ".")).toAbsolutePath().normalize();
        Optional<Jdk> jdk25 = Jdk.at(System.getProperty("mcpwire.jdk25", ""));
        Jdk jdk = options.jdk25() ? jdk25.orElseThrow(() -> new IllegalStateException("--jdk25: no JDK 25 found")) : Jdk.current();
        List<Peer> peers = new Peers(root, jdk, jdk25).chosen(options);
        StartupAids aids = new StartupAids(root);
        progress("training the start-up aids");
        aids.train(peers, options.keepAids());
        Harness h = new Harness(options, root, peers, aids);
        PrintStream out = System.out;
        h.header(out, root, jdk, jdk25);
        h.run();
        Bootstrap bootstrap = new Bootstrap(options.seed(), RESAMPLES);
        Report report = new Report(peers, h.results, bootstrap, out);
        report.peersTable();
        report.mediansTable();
        report.openLoopTable();
        report.answersTable();
        h.threadCpu(out, bootstrap);
        PairsReport pairs = new PairsReport(peers, h.results, bootstrap, out);
        pairs.tables();
        report.incidents();
        pairs.summaries();
        pairs.perRound();
        h.strayOutput(root);
        out.printf(Locale.ROOT, "%nrun: %.1f min%n", (System.nanoTime() - h.began) / 60e9);
    }

    private void header(PrintStream out, Path root, Jdk jdk, Optional<Jdk> jdk25) throws Exception {
        Versions v = new Versions(root);
        out.printf("mcpwire end-to-end benchmark%s: %d cores, %s %s, %s%n", options.quick() ? " (--quick)" : options.pairsOnly() ? " (--pairs)" : "",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"), cpuModel());
        out.println("runtimes: " + v.runtimes(jdk, jdk25));
        out.println("libraries: " + v.libraries());
        out.println("start-up aids: " + (jdk.aotCache() ? "an ahead-of-time cache (JDK 25, no method profiles)" : "a dynamic class data archive (JDK 17)")
                + " per JVM peer, each trained on one session of its era (opening, tools/list, an echo call, a round trip);"
                + " no aid: the JDK's default archive only; every JVM peer with -Xlog:disable -Xlog:all=warning:stderr;"
                + " every measurement but the cold start without an aid runs with the aid");
        out.printf(Locale.ROOT, "rounds: %d for the pairs' peers and the floors, %d for the others, the peers shuffled anew in each (seed %d);"
                        + " cold start x%d per aid; %,d sequential round trips (the second half measured); %,d pipelined 1 KiB echo calls,"
                        + " fresh then warm, then warm again with the mixed text; open loop at %s calls/s, up to %d in flight, %.0f s each,"
                        + " each call timed from its due time, x%d; the idle server after 5 round trips and 1.5 s of quiet"
                        + " (its wake-ups over 2 s, then its resident memory) in every round; 8 MiB echo x%d%n",
                options.rounds(), options.otherRounds(), options.seed(), options.coldRounds(), options.pings(), options.calls(),
                Metric.OPEN_LOOP_RATES.stream().map(r -> String.format(Locale.ROOT, "%,d", r)).toList(), PacedWindow.IN_FLIGHT,
                options.openLoopSeconds(), options.openLoopRounds(), options.bigRounds());
        out.println("texts: 1,024 ASCII a's; mixed: " + Report.describeMixed());
        out.printf(Locale.ROOT, "intervals: bootstrap 95%% (%,d resamples) of the median, ratios paired by round; none, and no verdict,"
                + " from fewer than %d rounds (the median and the rounds' range instead);"
                + " no ratio is ever taken against a run that crashed, stalled or answered wrongly%n%n", RESAMPLES, Verdict.MIN_ROUNDS);
    }

    /** One measurement of one peer in one round. */
    private interface Measure {
        void run(Peer peer, int round) throws Exception;
    }

    private void run() throws Exception {
        List<Peer> mcp = peers.stream().filter(Peer::mcp).toList();
        coldStarts(mcp);
        if (options.coldOnly()) {
            return;
        }
        phase("round trips", mcp, options.rounds(), options::roundsOf, new RoundTrips(sessions, results, options.pings())::run);
        phase("throughput", peers, options.rounds(), options::roundsOf,
                new Throughput(sessions, results, options.calls(), options.threads())::run);
        if (options.openLoop()) {
            Predicate<Peer> openLoop = p -> options.only().isPresent() || Pair.compared(p.name());
            phase("open loop", mcp.stream().filter(openLoop).toList(), options.openLoopRounds(), p -> options.openLoopRounds(),
                    new OpenLoop(sessions, results, options.openLoopSeconds())::run);
        }
        phase("idle", mcp, options.rounds(), options::roundsOf, new Idle(sessions, results)::run);
        phase("8 MiB message", mcp, options.bigRounds(), p -> options.bigRounds(), new BigMessage(sessions, results)::run);
    }

    /**
     * Runs {@code measure} for each peer in each of {@code rounds} rounds, in an order shuffled per
     * round; a peer takes part in the first {@code roundsOf(peer)} of them.
     */
    private void phase(String name, List<Peer> of, int rounds, ToIntFunction<Peer> roundsOf, Measure measure) throws Exception {
        long t0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            int round = r;
            List<Peer> turn = new ArrayList<>(of.stream().filter(p -> round < roundsOf.applyAsInt(p)).toList());
            Collections.shuffle(turn, order);
            for (Peer p : turn) {
                measure.run(p, r);
            }
            progress(String.format(Locale.ROOT, "%s: round %d of %d", name, r + 1, rounds));
        }
        progress(String.format(Locale.ROOT, "%s done in %.1f min", name, (System.nanoTime() - t0) / 60e9));
    }

    /** Cold starts: each peer with and without its aid, all of them shuffled together in each round. */
    private void coldStarts(List<Peer> mcp) throws Exception {
        long t0 = System.nanoTime();
        ColdStart cold = new ColdStart(sessions, results);
        for (int r = 0; r < options.coldRounds(); r++) {
            List<Runnable> turn = new ArrayList<>();
            int round = r;
            for (Peer p : mcp) {
                turn.add(unchecked(() -> cold.run(p, Aid.NONE, round)));
                if (aids.has(p)) {
                    turn.add(unchecked(() -> cold.run(p, Aid.ARCHIVE, round)));
                }
            }
            Collections.shuffle(turn, order);
            turn.forEach(Runnable::run);
            progress(String.format(Locale.ROOT, "cold start: round %d of %d", r + 1, options.coldRounds()));
        }
        progress(String.format(Locale.ROOT, "cold start done in %.1f min", (System.nanoTime() - t0) / 60e9));
    }

    private interface Step {
        void run() throws Exception;
    }

    private static Runnable unchecked(Step step) {
        return () -> {
            try {
                step.run();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** With {@code --threads}: each server thread's CPU seconds per batch, medians. */
    private void threadCpu(PrintStream out, Bootstrap bootstrap) {
        if (!options.threads()) {
            return;
        }
        for (Metric m : results.metrics()) {
            if (m.name().contains(" CPU s, ")) {
                for (Peer p : peers) {
                    if (results.summary(m, p.name()) instanceof Measurements.Summary.Values v) {
                        out.println(m.name() + ", " + p.name() + ": " + Report.median(v.values(), bootstrap, Format::plusMinus));
                    }
                }
            }
        }
        out.println();
    }

    /** The drain's cost, beside the same server undrained, in a run that has mcpwire (not with --pairs or --no-stray). */
    private void strayOutput(Path root) throws Exception {
        Optional<Peer> demo = peers.stream().filter(p -> p.name().equals("mcpwire")).findFirst();
        if (demo.isPresent() && options.strayOutput() && !options.pairsOnly() && !options.coldOnly()) {
            StrayOutputRun stray = new StrayOutputRun(root, aids.command(demo.get(), Aid.ARCHIVE));
            stray.run(Math.max(1, options.bigRounds()), options.calls() / 5, options.pings() / 5);
            stray.report();
        }
    }

    private static void progress(String what) {
        System.err.println("bench: " + what);
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("cpu unknown");
        } catch (java.io.IOException e) {
            return "cpu unknown";
        }
    }
}
