package io.mcpwire.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TallyTest {
    private static final Expected PONG = new Expected.Pong();

    private static AnswerLog log(String... lines) {
        AnswerLog log = new AnswerLog();
        for (String l : lines) {
            byte[] b = l.getBytes(StandardCharsets.UTF_8);
            log.line(b, 0, b.length);
        }
        return log;
    }

    private static String pong(long id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
    }

    @Test
    void everyRequestAnsweredOnceAndRightly() {
        Tally t = Tally.of(log(pong(10), pong(11), pong(12)), 10, 3, PONG);
        assertEquals(new Tally(3, 3, 0, 0, 0, 0, 0, ""), t);
        assertTrue(t.allRight(3));
    }

    @Test
    void missingRepeatedReorderedWrongAndUnknownAnswersAreEachCounted() {
        String error = "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"no\"}}";
        Tally t = Tally.of(log(pong(2), pong(1), pong(2), error, "noise on the wire", pong(99)), 1, 5, PONG);
        assertEquals(6, t.checked());
        assertEquals(2, t.right());
        assertEquals(1, t.errors());
        assertEquals(2, t.wrong(), "a line that is not JSON-RPC, and an id never sent");
        assertEquals(2, t.missing(), "ids 4 and 5");
        assertEquals(1, t.duplicated());
        assertEquals(1, t.reordered());
        assertEquals(pong(2), t.sample(), "the first answer that was not right: the repeat");
        assertFalse(t.allRight(5));
        assertEquals(4, t.notRight());
    }

    @Test
    void tallyAddsUpAndKeepsTheFirstSample() {
        Tally a = new Tally(1, 0, 0, 1, 0, 0, 0, "first");
        Tally b = new Tally(2, 1, 1, 0, 3, 0, 1, "second");
        assertEquals(new Tally(3, 1, 1, 1, 3, 0, 1, "first"), a.plus(b));
        assertEquals("second", Tally.NONE.plus(b).sample());
    }

    @Test
    void aSampleIsCutShort() {
        byte[] line = "x".repeat(1000).getBytes(StandardCharsets.US_ASCII);
        assertEquals(Tally.SAMPLE_CHARS + 3, Tally.sample(line, 0, line.length).length());
    }

    @Test
    void theLogKeepsLinesWholeAcrossItsBlocks() {
        AnswerLog log = new AnswerLog();
        byte[] big = new byte[3 << 20];
        for (int i = 0; i < 3; i++) {
            big[0] = (byte) ('a' + i);
            log.line(big, 0, big.length);
        }
        StringBuilder firsts = new StringBuilder();
        log.forEach((block, offset, length) -> {
            assertEquals(big.length, length);
            firsts.append((char) block[offset]);
        });
        assertEquals("abc", firsts.toString());
        assertEquals(3, log.size());
    }
}
