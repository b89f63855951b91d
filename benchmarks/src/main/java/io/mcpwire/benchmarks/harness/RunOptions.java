package io.mcpwire.benchmarks.harness;

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
 * --rounds N         rounds of the pairs' peers (round trips, throughput); the others get half
 * --cold-rounds N    cold starts per peer and aid
 * --open-rounds N    rounds of the open-loop latency
 * --calls N          calls per throughput batch;  --pings N  round trips per latency run
 * --seed N           the order of the peers in each round (printed in the header)
 * --jdk25            every JVM peer on JDK 25, its aid an ahead-of-time cache
 * --keep-aids        reuse the start-up aids an earlier run made (while developing the harness)
 * --cold-only       the cold starts alone
 * --no-open-loop, --no-stray   leave out those parts
 * --threads          each server thread's CPU time per batch (Linux)
 * </pre>
 */
record RunOptions(boolean quick, boolean pairsOnly, Optional<List<String>> only, int rounds, int otherRounds,
                  int coldRounds, int openLoopRounds, int bigRounds, int calls, int pings, double openLoopSeconds,
                  long seed, boolean jdk25, boolean keepAids, boolean coldOnly, boolean openLoop, boolean strayOutput,
                  boolean threads) {

    static RunOptions parse(String[] args) {
        List<String> a = Arrays.asList(args);
        boolean quick = a.contains("--quick");
        int rounds = intOption(a, "--rounds", quick ? 3 : 10);
        return new RunOptions(quick, a.contains("--pairs"),
                Optional.ofNullable(stringOption(a, "--only")).map(s -> List.of(s.split(","))),
                rounds, Math.max(1, intOption(a, "--other-rounds", (rounds + 1) / 2)),
                intOption(a, "--cold-rounds", quick ? 3 : 12),
                intOption(a, "--open-rounds", quick ? 1 : 3),
                intOption(a, "--big-rounds", quick ? 1 : 3),
                intOption(a, "--calls", quick ? 20_000 : 50_000),
                intOption(a, "--pings", quick ? 2_000 : 10_000),
                quick ? 1.0 : 4.0,
                Long.parseLong(Optional.ofNullable(stringOption(a, "--seed")).orElse(Long.toString(System.nanoTime() % 100_000))),
                a.contains("--jdk25"), a.contains("--keep-aids"), a.contains("--cold-only"), !a.contains("--no-open-loop"),
                !a.contains("--no-stray"), a.contains("--threads"));
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

    /** How many rounds {@code peer} runs in the phases that repeat: the pairs' peers more, for their intervals. */
    int roundsOf(Peer peer) {
        return Pair.peersOfPairs().contains(peer.name()) ? rounds : otherRounds;
    }
}
