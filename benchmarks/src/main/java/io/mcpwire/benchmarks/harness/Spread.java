package io.mcpwire.benchmarks.harness;

/**
 * Figures from fewer than {@link Verdict#MIN_ROUNDS} rounds, which get no interval: their median
 * (for a ratio, the ratio of the two medians) and the lowest and highest of the rounds (for a
 * ratio, of the rounds' own ratios, each round's two figures taken together).
 */
record Spread(double value, double min, double max) {

    static Spread of(double[] values) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return new Spread(Bootstrap.medianOf(values.clone()), min, max);
    }

    /** {@code candidate[i]} and {@code baseline[i]} are one round's figures. */
    static Spread ofRatios(double[] candidate, double[] baseline) {
        double[] ratios = new double[candidate.length];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = candidate[i] / baseline[i];
        }
        Spread r = of(ratios);
        return new Spread(Bootstrap.medianOf(candidate.clone()) / Bootstrap.medianOf(baseline.clone()), r.min(), r.max());
    }
}
