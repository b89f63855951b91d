package io.mcpwire.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.benchmarks.harness.Measurements.Summary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batches and the open loop against {@code cat}, which sends each line back, and against {@code sed -u Nq}, which stops after N lines. */
class ThroughputTest {
    @TempDir
    Path dir;

    private static Peer lines(String name, String... command) {
        return new Peer(name, Peer.Kind.STRIPPED, Era.LINES, new Peer.Launch.Program(List.of(command)), "");
    }

    private Sessions sessions(Measurements m) {
        return new Sessions(dir, new StartupAids(dir), m);
    }

    @Test
    void aBatchThatCompletesHasARateAndEveryAnswerChecked() throws Exception {
        Measurements m = new Measurements();
        Peer cat = lines("cat", "cat");
        new Throughput(sessions(m), m, 2_000, false).run(cat, 0);
        assertInstanceOf(Summary.Values.class, m.summary(Metric.FRESH, "cat"));
        assertInstanceOf(Summary.Values.class, m.summary(Metric.WARM, "cat"));
        assertInstanceOf(Summary.Values.class, m.summary(Metric.WARM_MIXED, "cat"));
        assertEquals(new Tally(6_000, 6_000, 0, 0, 0, 0, 0, ""), m.tally("cat"), "fresh, warm and the mixed text, each line whole");
    }

    @Test
    void aBatchWhoseOutputEndsEarlyIsACrashWithoutARate() throws Exception {
        Measurements m = new Measurements();
        Peer head = lines("sed", "sed", "-u", "51q"); // the opening, then 50 answers, each line as it comes
        new Throughput(sessions(m), m, 2_000, false).run(head, 0);
        Summary.Failures fresh = assertInstanceOf(Summary.Failures.class, m.summary(Metric.FRESH, "sed"));
        assertEquals("crashed after 50 (1/1)", fresh.cell());
        assertEquals("after a fresh batch that failed (1/1)",
                assertInstanceOf(Summary.Failures.class, m.summary(Metric.WARM, "sed")).cell());
        assertInstanceOf(Summary.Failures.class, m.summary(Metric.WARM_MIXED, "sed"));
        assertEquals(1_950, m.tally("sed").missing());
    }

    @Test
    void theOpenLoopMeasuresARateThatIsKeptAndNotOneThatEnded() throws Exception {
        Measurements m = new Measurements();
        new OpenLoop(sessions(m), m, 0.5).run(lines("cat", "cat"), 0);
        for (int rate : Metric.OPEN_LOOP_RATES) {
            Summary.Values p99 = assertInstanceOf(Summary.Values.class, m.summary(Metric.openLoop(rate, 99), "cat"));
            assertTrue(p99.values()[0] > 0);
            Summary.Values late = assertInstanceOf(Summary.Values.class, m.summary(Metric.senderLate(rate, 100), "cat"));
            assertTrue(late.values()[0] >= 0 && late.values()[0] < p99.values()[0] + 1_000_000, "the sender's lateness, apart: " + late.values()[0]);
        }
        new OpenLoop(sessions(m), m, 0.5).run(lines("sed", "sed", "-u", "101q"), 0);
        Summary.Failures failed = assertInstanceOf(Summary.Failures.class, m.summary(Metric.openLoop(1_000, 99), "sed"));
        assertEquals("crashed after 100 (1/1)", failed.cell(), "its warm-up ended after 100 answers");
    }

    @Test
    void aRateOutOfReachIsSaturatedAndItsUnsentCallsAreNotMissing() throws Exception {
        Measurements m = new Measurements();
        // answers every line, 20 ms after it came: some 50 calls a second, far below every rate
        Peer slow = lines("slow", "sh", "-c", "while IFS= read -r l; do sleep 0.02; printf '%s\\n' \"$l\"; done");
        new OpenLoop(sessions(m), m, 0.5).run(slow, 0);
        Summary.Failures failed = assertInstanceOf(Summary.Failures.class, m.summary(Metric.openLoop(1_000, 99), "slow"));
        assertTrue(failed.cell().startsWith("saturated at "), failed.cell());
        Tally tally = m.tally("slow");
        assertTrue(tally.right() > 0, tally.toString());
        assertEquals(new Tally(tally.right(), tally.right(), 0, 0, 0, 0, 0, ""), tally, "every call sent was answered, and none unsent is counted");
    }
}
