package io.mcpwire.benchmarks.harness;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.benchmarks.harness.Measurements.Pairing;
import io.mcpwire.benchmarks.harness.Measurements.Summary;
import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeasurementsTest {
    private static final Peer OWN = new Peer("own", Peer.Kind.REALISTIC, Era.LEGACY, new Peer.Launch.Program(List.of("own")), "");
    private static final Peer OURS = new Peer("ours", Peer.Kind.REALISTIC, Era.LEGACY, new Peer.Launch.Program(List.of("ours")), "");

    @Test
    void aPeerThatCrashedInAnyRoundShowsTheCrashAndHasNoRatio() {
        Measurements m = new Measurements();
        for (int round = 0; round < 3; round++) {
            m.value(Metric.FRESH, OURS, round, 1000 + round);
        }
        m.value(Metric.FRESH, OWN, 0, 900);
        m.failed(Metric.FRESH, OWN, 1, new Failure.Crashed(3331));
        m.failed(Metric.FRESH, OWN, 2, new Failure.Crashed(42745));
        Summary s = m.summary(Metric.FRESH, "own");
        assertEquals("crashed after 3,331 (2/3)", ((Summary.Failures) s).cell(), "the lower median of the crashes, and how many rounds");
        assertEquals(new Pairing.Unpaired("own failed"), m.paired(Metric.FRESH, "ours", "own"));
        assertEquals(new Pairing.Unpaired("own failed"), m.paired(Metric.FRESH, "own", "ours"), "as either side");
        assertEquals(List.of("throughput fresh, msg/s, round 2: crashed after 3,331", "throughput fresh, msg/s, round 3: crashed after 42,745"),
                m.incidents().get("own"));
    }

    @Test
    void figuresOfEveryRoundArePairedByRound() {
        Measurements m = new Measurements();
        m.value(Metric.PING_P50, OWN, 1, 20);
        m.value(Metric.PING_P50, OWN, 0, 10);
        m.value(Metric.PING_P50, OURS, 0, 5);
        m.value(Metric.PING_P50, OURS, 1, 8);
        Pairing.Paired p = assertInstanceOf(Pairing.Paired.class, m.paired(Metric.PING_P50, "ours", "own"));
        assertArrayEquals(new double[] {5, 8}, p.candidate());
        assertArrayEquals(new double[] {10, 20}, p.baseline());
    }

    @Test
    void differentRoundsOrNoFiguresGiveNoRatio() {
        Measurements m = new Measurements();
        m.value(Metric.WARM, OWN, 0, 10);
        m.value(Metric.WARM, OURS, 1, 10);
        assertEquals(new Pairing.Unpaired("not the same rounds"), m.paired(Metric.WARM, "ours", "own"));
        assertEquals(new Pairing.Unpaired("not measured"), m.paired(Metric.COLD_AID, "ours", "own"));
        assertInstanceOf(Summary.Missing.class, m.summary(Metric.COLD_AID, "own"));
    }

    @Test
    void otherFailuresShowTheirFirst() {
        Measurements m = new Measurements();
        m.failed(Metric.WARM, OWN, 0, new Failure.Stalled(0, 20));
        m.failed(Metric.WARM, OWN, 1, new Failure.WrongAnswers(3));
        assertEquals("stalled after 0 (2/2)", ((Summary.Failures) m.summary(Metric.WARM, "own")).cell());
    }

    @Test
    void thePairsReportTakesNoRatioAgainstACrash() {
        Measurements m = new Measurements();
        Peer official = new Peer("official", Peer.Kind.REALISTIC, Era.LEGACY, new Peer.Launch.Program(List.of("x")), "");
        Peer bridge = new Peer("official-bridge", Peer.Kind.REALISTIC, Era.LEGACY, new Peer.Launch.Program(List.of("x")), "");
        m.failed(Metric.FRESH, official, 0, new Failure.Crashed(10));
        m.value(Metric.FRESH, bridge, 0, 5000);
        m.value(Metric.WARM, official, 0, 100);
        m.value(Metric.WARM, bridge, 0, 50);
        for (int round = 0; round < 6; round++) {
            m.value(Metric.PING_P50, official, round, 100);
            m.value(Metric.PING_P50, bridge, round, 50);
        }
        for (int round = 0; round < 5; round++) {
            m.value(Metric.COLD_AID, official, round, 100 + round);
            m.value(Metric.COLD_AID, bridge, round, 200);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PairsReport report = new PairsReport(List.of(official, bridge), m, new Bootstrap(1, 100), new PrintStream(bytes, true, UTF_8));
        Pair pair = Pair.HEADLINE.get(1);
        assertEquals(new PairsReport.Comparison("no ratio: official failed", ""), report.compare(Metric.FRESH, pair));
        assertEquals(new PairsReport.Comparison("x0.50 [0.50, 0.50]", "faster"), report.compare(Metric.PING_P50, pair));
        assertEquals(new PairsReport.Comparison("x0.50 (0.50-0.50)", "too few rounds to tell"), report.compare(Metric.WARM, pair),
                "one round has no interval: its figure and range");
        assertEquals(new PairsReport.Comparison("x1.96 (1.92-2.00)", "too few rounds to tell"), report.compare(Metric.COLD_AID, pair),
                "nor have five: 200 / 102, and the rounds' own ratios from 200 / 104 to 200 / 100");
        report.summaries();
        report.perRound();
        String printed = bytes.toString(UTF_8);
        assertTrue(printed.contains("summary: official-bridge / official: throughput fresh, msg/s no ratio: official failed;"), printed);
        assertTrue(printed.contains("  official-bridge / official, throughput fresh, msg/s: official failed; official-bridge 5000\n"), printed);
        assertTrue(printed.contains("  official-bridge / official, cold start, aid, ms: official 100 101 102 103 104; official-bridge 200 200 200 200 200\n"),
                printed);
    }
}
