package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the harness measured: each metric's figure for each peer, round by round (a value or
 * the failure that left none), each peer's tally of checked answers, and its incidents. One thread.
 */
final class Measurements {
    private final Map<Metric, Map<String, TreeMap<Integer, Sample>>> samples = new LinkedHashMap<>();
    private final Map<String, Tally> tallies = new LinkedHashMap<>();
    private final Map<String, List<String>> incidents = new LinkedHashMap<>();

    void value(Metric metric, Peer peer, int round, double value) {
        put(metric, peer.name(), round, new Sample.Value(value));
    }

    /** Records that {@code metric} has no figure for {@code peer} in {@code round}, and why, among its incidents. */
    void failed(Metric metric, Peer peer, int round, Failure failure) {
        put(metric, peer.name(), round, new Sample.Failed(failure));
        incident(peer, metric.name() + ", round " + (round + 1) + ": " + failure.cell());
    }

    void put(Metric metric, String peer, int round, Sample sample) {
        samples.computeIfAbsent(metric, k -> new LinkedHashMap<>()).computeIfAbsent(peer, k -> new TreeMap<>()).put(round, sample);
    }

    /** Every metric measured, in the order first measured. */
    java.util.Set<Metric> metrics() {
        return samples.keySet();
    }

    void tally(Peer peer, Tally tally) {
        tallies.merge(peer.name(), tally, Tally::plus);
    }

    Tally tally(String peer) {
        return tallies.getOrDefault(peer, Tally.NONE);
    }

    void incident(Peer peer, String what) {
        incidents.computeIfAbsent(peer.name(), k -> new ArrayList<>()).add(what);
    }

    Map<String, List<String>> incidents() {
        return incidents;
    }

    /** {@code metric}'s figure or failure for {@code peer}, round by round (from 0); empty when not measured. */
    SortedMap<Integer, Sample> rounds(Metric metric, String peer) {
        return Collections.unmodifiableSortedMap(samples.getOrDefault(metric, Map.of()).getOrDefault(peer, new TreeMap<>()));
    }

    /** What is known of {@code metric} for {@code peer}. */
    Summary summary(Metric metric, String peer) {
        TreeMap<Integer, Sample> rounds = samples.getOrDefault(metric, Map.of()).get(peer);
        if (rounds == null || rounds.isEmpty()) {
            return new Summary.Missing();
        }
        List<Failure> failures = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (Sample s : rounds.values()) {
            if (s instanceof Sample.Failed f) {
                failures.add(f.failure());
            } else {
                values.add(((Sample.Value) s).value());
            }
        }
        return failures.isEmpty() ? new Summary.Values(values.stream().mapToDouble(Double::doubleValue).toArray())
                : new Summary.Failures(failures, rounds.size());
    }

    /**
     * Both peers' figures of {@code metric}, paired by round, when each has a value in every round
     * and they ran the same rounds; else why there is no ratio. A peer that failed in any round is
     * never a side of a ratio: its surviving rounds would flatter it.
     */
    Pairing paired(Metric metric, String candidate, String baseline) {
        Map<String, TreeMap<Integer, Sample>> byPeer = samples.getOrDefault(metric, Map.of());
        TreeMap<Integer, Sample> c = byPeer.get(candidate);
        TreeMap<Integer, Sample> b = byPeer.get(baseline);
        if (c == null || b == null) {
            return new Pairing.Unpaired("not measured");
        }
        for (Map.Entry<String, TreeMap<Integer, Sample>> side : List.of(Map.entry(baseline, b), Map.entry(candidate, c))) {
            if (side.getValue().values().stream().anyMatch(s -> s instanceof Sample.Failed)) {
                return new Pairing.Unpaired(side.getKey() + " failed");
            }
        }
        if (!c.keySet().equals(b.keySet())) {
            return new Pairing.Unpaired("not the same rounds");
        }
        return new Pairing.Paired(values(c), values(b));
    }

    private static double[] values(TreeMap<Integer, Sample> rounds) {
        return rounds.values().stream().mapToDouble(s -> ((Sample.Value) s).value()).toArray();
    }

    /** What is known of one metric for one peer. */
    sealed interface Summary {
        /** Not measured. */
        record Missing() implements Summary {
        }

        /** A value in every round measured. */
        record Values(double[] values) implements Summary {
        }

        /** At least one round failed: {@code failures} of {@code rounds}. */
        record Failures(List<Failure> failures, int rounds) implements Summary {
            /** The cell: the typical failure (a crash after the median count of answers), and in how many rounds. */
            String cell() {
                List<Long> crashedAfter = failures.stream().filter(f -> f instanceof Failure.Crashed)
                        .map(f -> ((Failure.Crashed) f).answered()).sorted().toList();
                Failure typical = crashedAfter.size() * 2 >= failures.size() && !crashedAfter.isEmpty()
                        ? new Failure.Crashed(crashedAfter.get((crashedAfter.size() - 1) / 2)) : failures.get(0);
                return typical.cell() + " (" + failures.size() + "/" + rounds + ")";
            }
        }
    }

    /** Two peers' figures of one metric, paired by round, or why there is no ratio. */
    sealed interface Pairing {
        record Paired(double[] candidate, double[] baseline) implements Pairing {
        }

        record Unpaired(String why) implements Pairing {
        }
    }
}
