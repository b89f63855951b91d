package io.mcpwire.benchmarks.harness;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile bootstrap intervals (95 %) for a median and for a ratio of two medians. A ratio's two
 * samples are paired by round: each resample draws rounds, and takes both peers' figures of each
 * round drawn, so that the drift of the machine between rounds, which both peers of a round share,
 * does not widen the interval. Seeded, so that the same figures give the same interval.
 */
final class Bootstrap {
    private static final double LEVEL = 0.95;
    private final long seed;
    private final int resamples;

    Bootstrap(long seed, int resamples) {
        if (resamples < 1) {
            throw new IllegalArgumentException("resamples < 1: " + resamples);
        }
        this.seed = seed;
        this.resamples = resamples;
    }

    /** The median of {@code values} with its interval; at least one value. */
    Estimate median(double[] values) {
        requireSome(values);
        SplittableRandom random = new SplittableRandom(seed);
        double[] stats = new double[resamples];
        double[] draw = new double[values.length];
        for (int b = 0; b < resamples; b++) {
            for (int i = 0; i < draw.length; i++) {
                draw[i] = values[random.nextInt(values.length)];
            }
            stats[b] = medianOf(draw);
        }
        return interval(medianOf(values.clone()), stats);
    }

    /**
     * The ratio of the median of {@code candidate} to the median of {@code baseline}, with its
     * interval; {@code candidate[i]} and {@code baseline[i]} are one round's figures.
     */
    Estimate ratioOfMedians(double[] candidate, double[] baseline) {
        requireSome(candidate);
        if (candidate.length != baseline.length) {
            throw new IllegalArgumentException("unpaired: " + candidate.length + " against " + baseline.length + " rounds");
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] stats = new double[resamples];
        double[] c = new double[candidate.length];
        double[] a = new double[baseline.length];
        for (int b = 0; b < resamples; b++) {
            for (int i = 0; i < c.length; i++) {
                int round = random.nextInt(c.length);
                c[i] = candidate[round];
                a[i] = baseline[round];
            }
            stats[b] = medianOf(c) / medianOf(a);
        }
        return interval(medianOf(candidate.clone()) / medianOf(baseline.clone()), stats);
    }

    /** The median of {@code v}, which it sorts. */
    static double medianOf(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static Estimate interval(double value, double[] stats) {
        Arrays.sort(stats);
        int n = stats.length;
        int low = (int) Math.floor((1 - LEVEL) / 2 * n);
        int high = Math.min(n - 1, (int) Math.ceil((1 + LEVEL) / 2 * n) - 1);
        return new Estimate(value, stats[low], stats[high]);
    }

    private static void requireSome(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
    }
}
