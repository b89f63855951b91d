package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Measurements.Pairing;
import io.mcpwire.benchmarks.harness.Measurements.Summary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.stream.Collectors;

/**
 * The headline: each transport pair of {@link Pair#HEADLINE} and the floors, metric by metric, the
 * two medians with their intervals and the ratio (candidate over baseline) with its paired
 * bootstrap interval and verdict; then the {@code summary:} lines, and the per-round figures of
 * every ratio they give, so that anyone can recompute an interval. A side that failed in any round
 * shows its failure, and that metric has no ratio; from fewer than {@link Verdict#MIN_ROUNDS}
 * rounds a ratio has the range of the rounds' own ratios and no interval, and no verdict.
 */
final class PairsReport {
    private final Set<String> present;
    private final Measurements results;
    private final Bootstrap bootstrap;
    private final PrintStream out;

    PairsReport(List<Peer> peers, Measurements results, Bootstrap bootstrap, PrintStream out) {
        this.present = peers.stream().map(Peer::name).collect(Collectors.toSet());
        this.results = results;
        this.bootstrap = bootstrap;
        this.out = out;
    }

    /** The metrics a pair's table shows, in order. */
    static List<Metric> pairMetrics() {
        List<Metric> metrics = new ArrayList<>(List.of(Metric.COLD_NONE, Metric.COLD_AID, Metric.PING_P50, Metric.PING_P99,
                Metric.FRESH, Metric.WARM, Metric.WARM_MIXED));
        for (int rate : Metric.OPEN_LOOP_RATES) {
            for (double percentile : Metric.OPEN_LOOP_PERCENTILES) {
                metrics.add(Metric.openLoop(rate, percentile));
            }
        }
        metrics.addAll(List.of(Metric.IDLE_WAKEUPS, Metric.IDLE_RSS, Metric.BIG_ROUND_TRIP, Metric.BIG_PEAK));
        return metrics;
    }

    void tables() {
        if (pairs().isEmpty()) {
            return;
        }
        out.println("The pairs: the same server code, JDK and start-up aid on two transports; ratio = mcpwire's side / the SDK's own,");
        out.println("median [bootstrap 95% interval], paired by round; faster/slower only when the ratio's interval leaves out 1.00;");
        out.println("from fewer than " + Verdict.MIN_ROUNDS + " rounds no interval and no verdict: median (lowest-highest of the rounds),"
                + " a ratio with the range of the rounds' own ratios");
        out.println();
        for (Pair pair : pairs()) {
            out.println(pair.title() + "  (" + pair.candidate() + " / " + pair.baseline() + ")");
            Table table = new Table().row(List.of("", pair.baseline(), pair.candidate(), "ratio", ""));
            for (Metric m : pairMetrics()) {
                Summary b = results.summary(m, pair.baseline());
                Summary c = results.summary(m, pair.candidate());
                if (b instanceof Summary.Missing && c instanceof Summary.Missing) {
                    continue;
                }
                Comparison comparison = compare(m, pair);
                table.row(List.of("  " + m.name(), cell(b), cell(c), comparison.ratio(), comparison.verdict()));
            }
            table.print(out);
            out.println();
        }
    }

    /** One line per pair: the ratios that say most, each with its interval and verdict. */
    void summaries() {
        for (Pair pair : pairs()) {
            List<String> parts = new ArrayList<>();
            for (Metric m : headlineMetrics(pair)) {
                Comparison c = compare(m, pair);
                parts.add(m.name() + " " + c.ratio() + (c.verdict().isEmpty() ? "" : " " + c.verdict()));
            }
            out.println((Pair.FLOORS.contains(pair) ? "floor: " : pair.equals(Pair.SINCE) ? "since: " : "summary: ") + pair.candidate() + " / " + pair.baseline() + ": "
                    + String.join("; ", parts));
        }
    }

    /** The figures of every round behind the summary lines' ratios: round 1 first, a failed round as "failed", one not run "-". */
    void perRound() {
        if (pairs().isEmpty()) {
            return;
        }
        out.println();
        out.println("per round, the figures behind each summary ratio (round 1 first; \"failed\": no figure that round):");
        for (Pair pair : pairs()) {
            for (Metric m : headlineMetrics(pair)) {
                out.println("  " + pair.candidate() + " / " + pair.baseline() + ", " + m.name() + ": "
                        + pair.baseline() + " " + figures(m, pair.baseline()) + "; " + pair.candidate() + " " + figures(m, pair.candidate()));
            }
        }
    }

    /** The metrics of a pair's summary line that its baseline was measured in. */
    private List<Metric> headlineMetrics(Pair pair) {
        List<Metric> metrics = new ArrayList<>(List.of(Metric.FRESH, Metric.WARM, Metric.WARM_MIXED, Metric.PING_P50, Metric.COLD_AID,
                Metric.COLD_NONE));
        if (Pair.FLOORS.contains(pair) || pair.equals(Pair.SINCE)) {
            Metric.OPEN_LOOP_RATES.forEach(r -> metrics.add(Metric.openLoop(r, 99)));
        }
        metrics.addAll(List.of(Metric.IDLE_WAKEUPS, Metric.IDLE_RSS));
        return metrics.stream().filter(m -> !(results.summary(m, pair.baseline()) instanceof Summary.Missing)).toList();
    }

    private String figures(Metric m, String peer) {
        SortedMap<Integer, Sample> rounds = results.rounds(m, peer);
        if (rounds.isEmpty()) {
            return "-";
        }
        List<String> figures = new ArrayList<>();
        for (int r = 0; r <= rounds.lastKey(); r++) {
            Sample s = rounds.get(r);
            figures.add(s instanceof Sample.Value v ? Format.exact(v.value()) : s == null ? "-" : "failed");
        }
        return String.join(" ", figures);
    }

    private List<Pair> pairs() {
        List<Pair> pairs = new ArrayList<>(Pair.HEADLINE);
        pairs.addAll(Pair.FLOORS);
        pairs.add(Pair.SINCE);
        return pairs.stream().filter(p -> present.contains(p.baseline()) && present.contains(p.candidate())).toList();
    }

    /** A ratio's cell and verdict, or why there is none. */
    record Comparison(String ratio, String verdict) {
    }

    Comparison compare(Metric m, Pair pair) {
        Pairing pairing = results.paired(m, pair.candidate(), pair.baseline());
        if (pairing instanceof Pairing.Paired p) {
            if (!Verdict.enough(p.candidate().length)) {
                return new Comparison(Format.ratio(Spread.ofRatios(p.candidate(), p.baseline())), Verdict.TOO_FEW_ROUNDS.word(m));
            }
            Estimate ratio = bootstrap.ratioOfMedians(p.candidate(), p.baseline());
            return new Comparison(Format.ratio(ratio), Verdict.of(ratio, m).word(m));
        }
        return new Comparison("no ratio: " + ((Pairing.Unpaired) pairing).why(), "");
    }

    private String cell(Summary s) {
        if (s instanceof Summary.Values v) {
            return Report.median(v.values(), bootstrap, Format::interval);
        }
        return s instanceof Summary.Failures f ? f.cell() : "-";
    }
}
