package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.UnreadStderrHost;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A host that never reads the server's stderr pipe until the session is over: a tool that prints
 * 1 MiB to {@code System.out}, then 1 MiB to {@code System.err}, is answered as if stderr were read,
 * the server ends at end of input, and what was dropped is counted in the log.
 */
class UnreadStderrTest {
    @Test
    void aToolThatFloodsAnUnreadStderrIsAnsweredInTimeAndTheServerStillEnds() throws Exception {
        UnreadStderrHost.Outcome o = UnreadStderrHost.run(DemoSessionTest.serverCommand(), "spill", "{\"kib\":1024}");
        assertTrue(o.answer().contains("printed 1024 KiB"), () -> "answered: " + o.answer() + "\n" + tail(o.stderr()));
        assertTrue(o.answeredInTime(), () -> "answered after " + o.answeredIn());
        assertEquals(Optional.of(0), o.exitCode(), () -> "ended at end of input\n" + tail(o.stderr()));
        assertTrue(o.stderr().startsWith("spill: a line of stray output"), "what stderr kept starts with the burst, whole");
        assertTrue(o.stderr().matches("(?s).*\\d+ bytes of stray output dropped: stderr was not being read.*"),
                () -> "the drop is counted in the log\n" + tail(o.stderr()));
    }

    private static String tail(String s) {
        return s.length() > 2000 ? "..." + s.substring(s.length() - 2000) : s;
    }
}
