package io.mcpwire.benchmarks.harness;

/**
 * What a ratio (candidate over baseline) says, read with its interval: better or worse only when
 * the interval leaves out 1.0, else within the noise; nothing from fewer than {@value #MIN_ROUNDS}
 * rounds, whose interval is no more than the figures themselves.
 */
enum Verdict {
    BETTER, WORSE, WITHIN_NOISE, TOO_FEW_ROUNDS;

    static final int MIN_ROUNDS = 3;

    static Verdict of(Estimate ratio, Metric metric, int rounds) {
        return rounds < MIN_ROUNDS ? TOO_FEW_ROUNDS : of(ratio, metric);
    }

    static Verdict of(Estimate ratio, Metric metric) {
        if (!ratio.excludes(1.0)) {
            return WITHIN_NOISE;
        }
        boolean above = ratio.low() > 1.0;
        return above == (metric.better() == Metric.Better.HIGHER) ? BETTER : WORSE;
    }

    /** The word for {@code metric}: "faster", "slower", "smaller", ... or "within noise". */
    String word(Metric metric) {
        return switch (this) {
            case BETTER -> metric.betterWord();
            case WORSE -> metric.worseWord();
            case WITHIN_NOISE -> "within noise";
            case TOO_FEW_ROUNDS -> "too few rounds to tell";
        };
    }
}
