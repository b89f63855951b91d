package io.mcpwire.benchmarks.harness;

import java.util.BitSet;

/**
 * The answers of one or more batches, each parsed and checked against its request: how many were
 * checked, right, JSON-RPC or tool errors, wrong (anything else, an unknown id included), and the
 * requests left unanswered, answered twice, or answered out of order (which JSON-RPC allows, and
 * which is counted only to be seen); and the first answer that was not right, cut short, to show
 * what went wrong ({@code ""} when none).
 */
record Tally(long checked, long right, long errors, long wrong, long missing, long duplicated, long reordered, String sample) {
    static final Tally NONE = new Tally(0, 0, 0, 0, 0, 0, 0, "");
    /** How much of an answer that was not right is kept. */
    static final int SAMPLE_CHARS = 160;

    /** A tally of {@code count} requests, each answered once and rightly. */
    static Tally ofRight(long count) {
        return new Tally(count, count, 0, 0, 0, 0, 0, "");
    }

    /** The first {@link #SAMPLE_CHARS} characters of an answer, for an incident. */
    static String sample(byte[] line, int offset, int length) {
        return new String(line, offset, Math.min(length, SAMPLE_CHARS), java.nio.charset.StandardCharsets.UTF_8)
                + (length > SAMPLE_CHARS ? "..." : "");
    }

    /**
     * Checks every line of {@code log} as an answer to the requests with ids {@code firstId} to
     * {@code firstId + count - 1}, each of which asked for {@code expected}.
     */
    static Tally of(AnswerLog log, long firstId, int count, Expected expected) {
        BitSet answered = new BitSet(count);
        long[] t = new long[7]; // checked, right, errors, wrong, missing, duplicated, reordered
        long[] highest = {-1};
        String[] sample = {""};
        log.forEach((block, offset, length) -> {
            AnswerCheck.Checked c = AnswerCheck.check(block, offset, length, expected);
            t[0]++;
            long index = c.id() - firstId;
            boolean unknown = c.id() < 0 || index < 0 || index >= count;
            if (sample[0].isEmpty() && (unknown || c.verdict() != AnswerCheck.Verdict.RIGHT || answered.get((int) index))) {
                sample[0] = sample(block, offset, length);
            }
            if (unknown) {
                t[3]++; // no id, or one that was never sent
                return;
            }
            if (answered.get((int) index)) {
                t[5]++;
                return;
            }
            answered.set((int) index);
            if (c.id() < highest[0]) {
                t[6]++;
            }
            highest[0] = Math.max(highest[0], c.id());
            switch (c.verdict()) {
                case RIGHT -> t[1]++;
                case ERROR -> t[2]++;
                case WRONG -> t[3]++;
            }
        });
        t[4] = count - answered.cardinality();
        return new Tally(t[0], t[1], t[2], t[3], t[4], t[5], t[6], sample[0]);
    }

    /** Whether every request was answered once, and rightly. */
    boolean allRight(int count) {
        return right == count && checked == count;
    }

    /** The answers that were not right: errors, wrong ones and repeats. */
    long notRight() {
        return errors + wrong + duplicated;
    }

    Tally plus(Tally o) {
        return new Tally(checked + o.checked, right + o.right, errors + o.errors, wrong + o.wrong,
                missing + o.missing, duplicated + o.duplicated, reordered + o.reordered, sample.isEmpty() ? o.sample : sample);
    }
}
