package io.mcpwire.benchmarks.harness;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How much to measure, and of whom, from the command line.
 *
 * <pre>
 * --quick            fewer rounds and smaller batches: a smoke run of a few minutes
 * --pairs            the headline pairs and the floor only
 * --only a,b         those peers only
 * --rounds N         rounds of the pairs' peers and the floors (round trips, throughput)
 * --other-rounds N   rounds of the other peers (default: half as many)
 * --cold-rounds N    cold starts per peer and aid
 * --open-rounds N    rounds of the open-loop latency (its peers: the pairs' and the floors', or those of --only)
 * --big-rounds N     rounds of the idle server and the 8 MiB message
 * --calls N          calls per throughput batch;  --pings N  round trips per latency run
 * --seed N           the order of the peers in each round (printed in the header)
 * --jdk25            every JVM peer on JDK 25, its aid an ahead-of-time cache
 * --keep-aids        reuse the start-up aids an earlier run made (while developing the harness)
 * --cold-only       the cold starts alone
 * --no-open-loop, --no-stray   leave out those parts
 * --no-build         (benchmarks/run's own: skip the build)
 * --threads          each server thread's CPU time per batch (Linux)
 * --baseline DIR     also the demo server of another checkout, built there by ./demo --build-only
 *                    ({@code mcpwire-base}, with the pairs' rounds): this build against that one
 * </pre>
 */
record RunOptions(boolean quick, boolean pairsOnly, Optional<List<String>> only, int rounds, int otherRounds,
                  int coldRounds, int openLoopRounds, int bigRounds, int calls, int pings, double openLoopSeconds,
                  long seed, boolean jdk25, boolean keepAids, boolean coldOnly, boolean openLoop, boolean strayOutput,
                  boolean threads, Optional<Path> baseline) {

    /** The flags, and the options that take a value; {@code --no-build} is the run script's. */
    private static final List<String> FLAGS = List.of("--quick", "--pairs", "--jdk25", "--keep-aids", "--cold-only",
            "--no-open-loop", "--no-stray", "--threads", "--no-build");
    private static final List<String> VALUED = List.of("--only", "--rounds", "--other-rounds", "--cold-rounds", "--open-rounds",
            "--big-rounds", "--calls", "--pings", "--seed", "--baseline");

    static RunOptions parse(String[] args) {
        List<String> a = Arrays.asList(args);
        for (int i = 0; i < args.length; i++) {
            if (VALUED.contains(args[i])) {
                i++;
            } else if (!FLAGS.contains(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; the options: " + FLAGS + " " + VALUED);
            }
        }
        boolean quick = a.contains("--quick");
        int rounds = intOption(a, "--rounds", quick ? 3 : 10);
        return new RunOptions(quick, a.contains("--pairs"),
                Optional.ofNullable(stringOption(a, "--only")).map(s -> List.of(s.split(","))),
                rounds, Math.max(1, intOption(a, "--other-rounds", (rounds + 1) / 2)),
                intOption(a, "--cold-rounds", quick ? 3 : 12),
                intOption(a, "--open-rounds", quick ? 1 : 10),
                intOption(a, "--big-rounds", quick ? 1 : 2),
                intOption(a, "--calls", quick ? 10_000 : 25_000),
                intOption(a, "--pings", quick ? 2_000 : 5_000),
                quick ? 1.0 : 3.0,
                Long.parseLong(Optional.ofNullable(stringOption(a, "--seed")).orElse(Long.toString(System.nanoTime() % 100_000))),
                a.contains("--jdk25"), a.contains("--keep-aids"), a.contains("--cold-only"), !a.contains("--no-open-loop"),
                !a.contains("--no-stray"), a.contains("--threads"),
                Optional.ofNullable(stringOption(a, "--baseline")).map(d -> Path.of(d).toAbsolutePath().normalize()));
    }

    /** The value after {@code name}, or null when it is not given. */
    private static String stringOption(List<String> args, String name) {
        int at = args.indexOf(name);
        if (at >= 0 && at + 1 >= args.size()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return at >= 0 ? args.get(at + 1) : null;
    }

    /** The number after {@code name}, or {@code otherwise} when it is not given. */
    private static int intOption(List<String> args, String name, int otherwise) {
        String v = stringOption(args, name);
        return v == null ? otherwise : Integer.parseInt(v);
    }

    /** How many rounds {@code peer} runs in the phases that repeat: the pairs' and the floors' peers more, for their intervals. */
    int roundsOf(Peer peer) {
        return Pair.compared(peer.name()) ? rounds : otherRounds;
    }
}
