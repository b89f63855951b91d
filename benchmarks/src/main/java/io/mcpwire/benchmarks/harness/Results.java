package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Harness.Peer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the harness measured, per metric and peer, with each peer's incidents and answers missing,
 * duplicated or out of order; prints the table of medians and the summary lines. One thread.
 */
final class Results {
    private final List<Peer> peers;
    private final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();
    private final Map<String, List<String>> incidents = new LinkedHashMap<>();
    private final Map<String, long[]> integrity = new LinkedHashMap<>(); // missing, duplicated, out of order

    Results(List<Peer> peers) {
        this.peers = peers;
        for (Peer p : peers) {
            incidents.put(p.name(), new ArrayList<>());
            integrity.put(p.name(), new long[3]);
        }
    }

    void record(String metric, Peer p, double value) {
        figures.computeIfAbsent(metric, k -> new LinkedHashMap<>()).computeIfAbsent(p.name(), k -> new ArrayList<>()).add(value);
    }

    void incident(Peer p, String what) {
        incidents.get(p.name()).add(what);
    }

    /** Counts answers of a batch: {@code missing}, {@code duplicated} and {@code reordered}. */
    void integrity(Peer p, long missing, long duplicated, long reordered) {
        long[] b = integrity.get(p.name());
        b[0] += missing;
        b[1] += duplicated;
        b[2] += reordered;
    }

    private static double median(List<Double> v) {
        if (v == null || v.isEmpty()) {
            return Double.NaN;
        }
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    private double median(String metric, String peer) {
        return median(figures.getOrDefault(metric, Map.of()).get(peer));
    }

    void print() {
        int w = 17;
        StringBuilder head = new StringBuilder(String.format("%-32s", "median (ratio to official)"));
        peers.forEach(p -> head.append(String.format(" %" + w + "s", p.name()))); // a space always separates columns
        System.out.println(head);
        for (String metric : figures.keySet()) {
            StringBuilder row = new StringBuilder(String.format("%-32s", metric));
            double base = median(metric, "official");
            for (Peer p : peers) {
                double v = median(metric, p.name());
                String cell = Double.isNaN(v) ? "-" : format(v)
                        + (Double.isNaN(base) || base == 0 ? "" : String.format(Locale.ROOT, " x%.2f", v / base));
                row.append(String.format(" %" + w + "s", cell));
            }
            System.out.println(row);
        }
        StringBuilder row = new StringBuilder(String.format("%-32s", "missing/duplicated/reordered"));
        for (Peer p : peers) {
            long[] b = integrity.get(p.name());
            row.append(String.format(" %" + w + "s", b[0] + "/" + b[1] + "/" + b[2]));
        }
        System.out.println(row);
        System.out.println("(a peer that crashed or stalled is measured at the rate it kept until then; see its incidents)");
        System.out.println();
        incidents.forEach((peer, list) -> {
            if (!list.isEmpty()) {
                System.out.println("incidents, " + peer + ": " + String.join("; ", list));
            }
        });
        System.out.printf(Locale.ROOT, "summary: throughput x%s, p50 latency x%s, cold start x%s (mcpwire / official Java SDK)%n",
                ratio("throughput fresh, msg/s"), ratio("ping p50, us"), ratio("cold start, ms"));
        System.out.printf(Locale.ROOT, "line echo: p50 latency x%s, throughput fresh x%s, warm x%s (mcpwire / line-echo)%n",
                ratio("ping p50, us", "mcpwire", "line-echo"),
                ratio("throughput fresh, msg/s", "mcpwire", "line-echo"),
                ratio("throughput warm, msg/s", "mcpwire", "line-echo"));
        System.out.printf(Locale.ROOT, "cold start vs TypeScript SDK: x%s (mcpwire-25 / typescript), x%s (mcpwire / typescript)%n",
                ratio("cold start, ms", "mcpwire-25", "typescript"), ratio("cold start, ms", "mcpwire", "typescript"));
        System.out.printf(Locale.ROOT, "bridge: throughput x%s, p50 latency x%s (official-bridge / official-imm)%n",
                ratio("throughput fresh, msg/s", "official-bridge", "official-imm"),
                ratio("ping p50, us", "official-bridge", "official-imm"));
        System.out.printf(Locale.ROOT, "spring starter: cold start x%s, throughput x%s, p50 latency x%s (spring-mcpwire / spring)%n",
                ratio("cold start, ms", "spring-mcpwire", "spring"),
                ratio("throughput fresh, msg/s", "spring-mcpwire", "spring"),
                ratio("ping p50, us", "spring-mcpwire", "spring"));
        System.out.printf(Locale.ROOT, "kotlin: cold start x%s, throughput fresh x%s, warm x%s, p50 latency x%s (kotlin-mcpwire / kotlin)%n",
                ratio("cold start, ms", "kotlin-mcpwire", "kotlin"),
                ratio("throughput fresh, msg/s", "kotlin-mcpwire", "kotlin"),
                ratio("throughput warm, msg/s", "kotlin-mcpwire", "kotlin"),
                ratio("ping p50, us", "kotlin-mcpwire", "kotlin"));
    }

    private String ratio(String metric) {
        return ratio(metric, "mcpwire", "official");
    }

    private String ratio(String metric, String peer, String base) {
        double r = median(metric, peer) / median(metric, base);
        return Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, "%.2f", r);
    }

    private static String format(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
