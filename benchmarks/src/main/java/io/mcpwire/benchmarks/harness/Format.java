package io.mcpwire.benchmarks.harness;

import java.util.Locale;

/** How figures read in the tables: three significant digits or whole numbers, ratios to two decimals. */
final class Format {
    private Format() {
    }

    static String number(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : "%.2f", v);
    }

    /** {@code 123 ±4%}: the median and its interval's larger distance from it. */
    static String plusMinus(Estimate e) {
        return number(e.value()) + String.format(Locale.ROOT, " ±%.0f%%", 100 * e.relativeHalfWidth());
    }

    /** {@code 123 [118, 131]}. */
    static String interval(Estimate e) {
        return number(e.value()) + " [" + number(e.low()) + ", " + number(e.high()) + "]";
    }

    /** {@code 123 (118-131)}: a median and the rounds' range, where there are too few rounds for an interval. */
    static String spread(Spread s) {
        return number(s.value()) + " (" + number(s.min()) + "-" + number(s.max()) + ")";
    }

    /** {@code x1.05 (0.99-1.10)}: a ratio of medians and the range of the rounds' own ratios. */
    static String ratio(Spread s) {
        return String.format(Locale.ROOT, "x%.2f (%.2f-%.2f)", s.value(), s.min(), s.max());
    }

    /** One round's figure to five significant digits, without grouping: for the per-round lines, to recompute from. */
    static String exact(double v) {
        return Double.isFinite(v) ? new java.math.BigDecimal(v).round(new java.math.MathContext(5)).stripTrailingZeros().toPlainString() : "-";
    }

    /** {@code x1.05 [0.99, 1.10]}. */
    static String ratio(Estimate e) {
        return String.format(Locale.ROOT, "x%.2f [%.2f, %.2f]", e.value(), e.low(), e.high());
    }

    /** {@code s} padded to {@code width} on the left (numbers) or right (names). */
    static String right(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    static String left(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
