package io.mcpwire.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BootstrapTest {
    private final Bootstrap bootstrap = new Bootstrap(42, 2_000);

    @Test
    void theMedianOfAnOddAndAnEvenCount() {
        assertEquals(3.0, Bootstrap.medianOf(new double[] {5, 1, 3}));
        assertEquals(2.5, Bootstrap.medianOf(new double[] {4, 1, 3, 2}));
    }

    @Test
    void constantFiguresHaveNoSpread() {
        Estimate e = bootstrap.median(new double[] {7, 7, 7, 7, 7});
        assertEquals(new Estimate(7, 7, 7), e);
    }

    @Test
    void theIntervalHoldsTheMedianAndLiesWithinTheFigures() {
        double[] v = {101, 97, 110, 95, 103, 99, 120, 98, 102, 100};
        Estimate e = bootstrap.median(v);
        assertEquals(100.5, e.value());
        assertTrue(e.low() <= e.value() && e.value() <= e.high(), e.toString());
        assertTrue(e.low() >= 95 && e.high() <= 120, e.toString());
        assertTrue(e.high() - e.low() < 25, "a median's interval is narrower than the range: " + e);
    }

    @Test
    void theSameSeedGivesTheSameInterval() {
        double[] v = {3, 9, 4, 8, 5, 7, 6, 1, 2, 10};
        assertEquals(new Bootstrap(1, 500).median(v), new Bootstrap(1, 500).median(v));
    }

    @Test
    void aRatioOfPairedFiguresThatMoveTogetherIsTight() {
        // The machine's drift moves both peers of a round alike: pairing by round keeps it out of the ratio.
        double[] baseline = {100, 150, 80, 120, 90, 200, 110, 95, 130, 105};
        double[] candidate = new double[baseline.length];
        for (int i = 0; i < baseline.length; i++) {
            candidate[i] = 2 * baseline[i];
        }
        assertEquals(new Estimate(2, 2, 2), bootstrap.ratioOfMedians(candidate, baseline));
    }

    @Test
    void aClearDifferenceExcludesOneAndNoiseDoesNot() {
        double[] baseline = {100, 104, 97, 101, 99, 103, 98, 102, 100, 96};
        double[] faster = {130, 127, 134, 131, 129, 126, 133, 128, 132, 130};
        double[] same = {101, 98, 103, 97, 100, 104, 99, 96, 102, 101};
        Estimate clear = bootstrap.ratioOfMedians(faster, baseline);
        Estimate noise = bootstrap.ratioOfMedians(same, baseline);
        assertTrue(clear.excludes(1.0), clear.toString());
        assertFalse(noise.excludes(1.0), noise.toString());
        assertEquals(Verdict.BETTER, Verdict.of(clear, Metric.FRESH));
        assertEquals(Verdict.WORSE, Verdict.of(clear, Metric.PING_P50), "a higher latency is worse");
        assertEquals(Verdict.WITHIN_NOISE, Verdict.of(noise, Metric.FRESH));
    }

    @Test
    void verdictsSayWhatTheMetricCallsThem() {
        Estimate lower = new Estimate(0.8, 0.7, 0.9);
        assertEquals("faster", Verdict.of(lower, Metric.PING_P50).word(Metric.PING_P50));
        assertEquals("slower", Verdict.of(lower, Metric.FRESH).word(Metric.FRESH));
        assertEquals("smaller", Verdict.of(lower, Metric.IDLE_RSS).word(Metric.IDLE_RSS));
        assertEquals("within noise", Verdict.of(new Estimate(1.02, 0.97, 1.08), Metric.FRESH).word(Metric.FRESH));
    }

    @Test
    void fewerThanSixRoundsGiveNoIntervalButTheirRange() {
        // The range of n rounds holds the true median with probability 1 - 2 / 2^n: 93.75 % for 5, 96.9 % for 6.
        assertFalse(Verdict.enough(5));
        assertTrue(Verdict.enough(6));
        assertEquals(new Spread(3, 1, 9), Spread.of(new double[] {9, 1, 3}));
        assertEquals("3.00 (1.00-9.00)", Format.spread(Spread.of(new double[] {9, 1, 3})));
        // the ratio of the medians, and the range of the rounds' own ratios
        assertEquals(new Spread(3, 2, 3), Spread.ofRatios(new double[] {20, 30, 40}, new double[] {10, 10, 20}));
        assertEquals("x3.00 (2.00-3.00)", Format.ratio(Spread.ofRatios(new double[] {20, 30, 40}, new double[] {10, 10, 20})));
    }

    @Test
    void unpairedOrEmptyFiguresAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> bootstrap.ratioOfMedians(new double[] {1, 2}, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> bootstrap.median(new double[0]));
    }
}
