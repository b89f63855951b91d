package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Measurements.Summary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The per-peer tables: every peer's medians (each with its interval's half-width, or from fewer
 * than {@link Verdict#MIN_ROUNDS} rounds with the rounds' range), the open-loop latencies and the
 * open-loop sender's lateness, and every answer checked; then each peer's incidents. No ratio here:
 * ratios are in {@link PairsReport}, each against a peer that completed every round.
 */
final class Report {
    private static final int NAME = 24;
    /** The main table's columns, with their headings. */
    private static final Map<Metric, String> COLUMNS = columns();

    private static Map<Metric, String> columns() {
        Map<Metric, String> c = new LinkedHashMap<>();
        c.put(Metric.COLD_NONE, "cold, no aid, ms");
        c.put(Metric.COLD_AID, "cold, aid, ms");
        c.put(Metric.PING_P50, "rt p50, us");
        c.put(Metric.PING_P99, "rt p99, us");
        c.put(Metric.FRESH, "fresh, msg/s");
        c.put(Metric.WARM, "warm, msg/s");
        c.put(Metric.WARM_MIXED, "mixed, msg/s");
        c.put(Metric.IDLE_WAKEUPS, "idle wake-ups/s");
        c.put(Metric.IDLE_RSS, "idle RSS, MiB");
        c.put(Metric.BIG_ROUND_TRIP, "8 MiB rt, ms");
        c.put(Metric.BIG_PEAK, "8 MiB peak, MiB");
        return c;
    }

    private final List<Peer> peers;
    private final Measurements results;
    private final Bootstrap bootstrap;
    private final PrintStream out;

    Report(List<Peer> peers, Measurements results, Bootstrap bootstrap, PrintStream out) {
        this.peers = peers;
        this.results = results;
        this.bootstrap = bootstrap;
        this.out = out;
    }

    void peersTable() {
        out.println("The peers (R: Realistic, a framework as its users run it; S: Stripped, a hand-written loop)");
        for (Peer p : peers) {
            String runtime = p.launch() instanceof Peer.Launch.Jvm jvm ? "JDK " + jvm.jdk().feature() : "";
            out.println("  " + Format.left(p.name(), NAME) + Format.left(p.kind().label().substring(0, 1), 2)
                    + Format.left(p.era() == Era.MODERN ? "2026-07-28" : p.era() == Era.LEGACY ? "legacy" : "lines", 11)
                    + Format.left(runtime, 7) + p.what());
        }
        out.println();
    }

    void mediansTable() {
        out.println("median ±95% interval's half-width, or from fewer than " + Verdict.MIN_ROUNDS + " rounds median (lowest-highest);"
                + " \"crashed after N (k/n)\": k of n rounds failed, N the median answers before it; mixed: warm, " + describeMixed());
        Table table = new Table();
        List<String> head = new ArrayList<>(List.of("peer"));
        head.addAll(COLUMNS.values());
        table.row(head);
        for (Peer p : peers) {
            List<String> row = new ArrayList<>(List.of(p.name()));
            COLUMNS.keySet().forEach(m -> row.add(cell(m, p.name())));
            table.row(row);
        }
        table.print(out);
        out.println();
    }

    void openLoopTable() {
        List<Integer> rates = Metric.OPEN_LOOP_RATES;
        if (openLoopPeers().isEmpty()) {
            return;
        }
        out.println("open loop: latency of 1 KiB echo calls at a fixed rate, up to " + PacedWindow.IN_FLIGHT
                + " in flight, from each call's due time; p50 / p99 / p99.9, us (medians of the rounds)");
        Table table = new Table();
        List<String> head = new ArrayList<>(List.of("peer"));
        rates.forEach(r -> head.add(String.format(Locale.ROOT, "%,d/s", r)));
        table.row(head);
        for (Peer p : openLoopPeers()) {
            List<String> row = new ArrayList<>(List.of(p.name()));
            for (int rate : rates) {
                List<String> parts = new ArrayList<>();
                String failure = null;
                for (double percentile : Metric.OPEN_LOOP_PERCENTILES) {
                    Summary s = results.summary(Metric.openLoop(rate, percentile), p.name());
                    if (s instanceof Summary.Failures f) {
                        failure = f.cell();
                    } else if (s instanceof Summary.Values v) {
                        parts.add(Format.number(Bootstrap.medianOf(v.values().clone())));
                    }
                }
                row.add(failure != null ? failure : String.join(" / ", parts));
            }
            table.row(row);
        }
        table.print(out);
        out.println();
        senderLatenessTable();
    }

    /** The open-loop sender's own lateness, apart from the latencies it is part of: a late client is not a slow server. */
    private void senderLatenessTable() {
        out.println("open loop, the sender's own lateness: each measured call's flush to the pipe after its due time"
                + " (the latencies above include it; the in-flight bound's waits are in it too); p99 / max, us (medians of the rounds"
                + " whose rate was kept)");
        Table table = new Table();
        List<String> head = new ArrayList<>(List.of("peer"));
        Metric.OPEN_LOOP_RATES.forEach(r -> head.add(String.format(Locale.ROOT, "%,d/s", r)));
        table.row(head);
        for (Peer p : openLoopPeers()) {
            List<String> row = new ArrayList<>(List.of(p.name()));
            for (int rate : Metric.OPEN_LOOP_RATES) {
                List<String> parts = new ArrayList<>();
                for (double percentile : Metric.SENDER_LATE_PERCENTILES) {
                    if (results.summary(Metric.senderLate(rate, percentile), p.name()) instanceof Summary.Values v) {
                        parts.add(Format.number(Bootstrap.medianOf(v.values().clone())));
                    }
                }
                row.add(parts.isEmpty() ? "-" : String.join(" / ", parts));
            }
            table.row(row);
        }
        table.print(out);
        out.println();
    }

    private List<Peer> openLoopPeers() {
        Metric first = Metric.openLoop(Metric.OPEN_LOOP_RATES.get(0), 50);
        return peers.stream().filter(p -> !(results.summary(first, p.name()) instanceof Summary.Missing)).toList();
    }

    void answersTable() {
        out.println("answers, every one parsed and checked against its request (JSON-RPC 2.0, its id, the echoed text whole, isError false; "
                + "pong; resultType complete in the 2026-07-28 era); reordered answers are allowed and only counted");
        Table table = new Table().row(List.of("peer", "checked", "right", "errors", "wrong", "missing", "duplicated", "reordered"));
        for (Peer p : peers) {
            Tally t = results.tally(p.name());
            table.row(List.of(p.name(), count(t.checked()), count(t.right()), count(t.errors()), count(t.wrong()),
                    count(t.missing()), count(t.duplicated()), count(t.reordered())));
        }
        table.print(out);
        out.println();
    }

    void incidents() {
        results.incidents().forEach((peer, list) -> out.println("incidents, " + peer + ": " + String.join("; ", list)));
        for (Peer p : peers) {
            String sample = results.tally(p.name()).sample();
            if (!sample.isEmpty()) {
                out.println("first answer not right, " + p.name() + ": " + sample);
            }
        }
        if (!results.incidents().isEmpty()) {
            out.println();
        }
    }

    private String cell(Metric m, String peer) {
        Summary s = results.summary(m, peer);
        if (s instanceof Summary.Values v) {
            return median(v.values(), bootstrap, Format::plusMinus);
        }
        return s instanceof Summary.Failures f ? f.cell() : "-";
    }

    /**
     * A median's cell: with its interval, as {@code shape} writes it, from {@link Verdict#MIN_ROUNDS}
     * rounds or more; from fewer, whose interval would cover too little, with the rounds' range.
     */
    static String median(double[] values, Bootstrap bootstrap, Function<Estimate, String> shape) {
        return Verdict.enough(values.length) ? shape.apply(bootstrap.median(values)) : Format.spread(Spread.of(values));
    }

    /** What the mixed text holds, and its size. */
    static String describeMixed() {
        return String.format(Locale.ROOT, "a %,d-character text of escapes, multi-byte UTF-8 and JSON inside the string (%,d bytes in the request)",
                Payload.MIXED.text().length(), Payload.MIXED.wireBytes().length);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
