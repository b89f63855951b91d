package io.mcpwire.benchmarks.harness;

import java.util.List;
import java.util.Locale;

/**
 * One figure the harness measures, which way is better, and the words a ratio's verdict uses:
 * "faster"/"slower" for time and rates, "smaller"/"larger" for memory.
 */
record Metric(String name, Better better, String betterWord, String worseWord) {

    /** Which way a figure improves. */
    enum Better {
        LOWER, HIGHER
    }

    static final Metric COLD_NONE = time("cold start, no aid, ms");
    static final Metric COLD_AID = time("cold start, aid, ms");
    static final Metric PING_P50 = time("round trip p50, us");
    static final Metric PING_P99 = time("round trip p99, us");
    static final Metric FRESH = rate("throughput fresh, msg/s");
    static final Metric WARM = rate("throughput warm, msg/s");
    /** The warm process again, with {@link Payload#MIXED}: escapes, multi-byte UTF-8 and JSON inside the string. */
    static final Metric WARM_MIXED = rate("throughput warm, mixed text, msg/s");
    static final Metric IDLE_WAKEUPS = new Metric("idle wake-ups/s", Better.LOWER, "fewer", "more");
    static final Metric IDLE_RSS = memory("idle RSS, MiB");
    static final Metric BIG_ROUND_TRIP = time("8 MiB round trip, ms");
    static final Metric BIG_PEAK = memory("8 MiB peak above idle, MiB");

    /** The open-loop rates, calls a second, each measured with up to 16 calls in flight. */
    static final List<Integer> OPEN_LOOP_RATES = List.of(1_000, 5_000, 20_000);
    /** The open-loop percentiles reported, as HdrHistogram takes them. */
    static final List<Double> OPEN_LOOP_PERCENTILES = List.of(50.0, 99.0, 99.9);
    /** The open-loop sender's lateness reported: p99 and the most late (100). */
    static final List<Double> SENDER_LATE_PERCENTILES = List.of(99.0, 100.0);

    static Metric time(String name) {
        return new Metric(name, Better.LOWER, "faster", "slower");
    }

    static Metric rate(String name) {
        return new Metric(name, Better.HIGHER, "faster", "slower");
    }

    static Metric memory(String name) {
        return new Metric(name, Better.LOWER, "smaller", "larger");
    }

    /** The latency at {@code percentile} of the open-loop run at {@code rate} calls a second. */
    static Metric openLoop(int rate, double percentile) {
        return time(String.format(Locale.ROOT, "open loop %,d/s p%s, us", rate, percentileLabel(percentile)));
    }

    /**
     * The open-loop sender's own lateness at {@code rate}: each measured call's send (its flush to
     * the pipe) after its due time, at {@code percentile} (100: the most late). Every latency of
     * that rate includes it; it is the client's, not the server's, unless the in-flight bound held
     * the sender back.
     */
    static Metric senderLate(int rate, double percentile) {
        return time(String.format(Locale.ROOT, "open loop %,d/s sender late %s, us", rate,
                percentile == 100 ? "max" : "p" + percentileLabel(percentile)));
    }

    static String percentileLabel(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile) : Double.toString(percentile);
    }
}
