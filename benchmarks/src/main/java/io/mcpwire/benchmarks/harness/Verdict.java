package io.mcpwire.benchmarks.harness;

/**
 * What a ratio (candidate over baseline) says, read with its interval: better or worse only when
 * the interval leaves out 1.0, else within the noise; nothing, and no interval, from fewer than
 * {@value #MIN_ROUNDS} rounds (see {@link #MIN_ROUNDS}).
 */
enum Verdict {
    BETTER, WORSE, WITHIN_NOISE, TOO_FEW_ROUNDS;

    /**
     * The fewest rounds that give an interval and a verdict. A percentile bootstrap interval of a
     * median of n rounds is at most the rounds' range, which holds the true median with probability
     * 1 - 2 / 2^n: 75 % for 3 rounds, 93.75 % for 5, and first above 95 % at 6 (96.9 %). Fewer
     * rounds are shown as their median and range ({@link Spread}).
     */
    static final int MIN_ROUNDS = 6;

    /** Whether {@code rounds} rounds are enough for an interval and a verdict. */
    static boolean enough(int rounds) {
        return rounds >= MIN_ROUNDS;
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
