package io.mcpwire.benchmarks.harness;

/** A statistic (a median, or a ratio of medians) with its bootstrap 95 % interval. */
record Estimate(double value, double low, double high) {

    /** Whether the interval leaves out {@code x} (for a ratio, 1.0: a difference beyond the noise). */
    boolean excludes(double x) {
        return x < low || x > high;
    }

    /** The interval's larger distance from the value, as a fraction of it: the "±" of a table cell. */
    double relativeHalfWidth() {
        return value == 0 ? 0 : Math.max(value - low, high - value) / Math.abs(value);
    }
}
