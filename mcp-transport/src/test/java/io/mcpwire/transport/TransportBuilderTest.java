package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.platform.test.FakeProcess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The transport's builder refuses every bad value and every second source of the wire, saying which. */
class TransportBuilderTest {

    @Test
    void badSizesAndANegativeGraceAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> StdioTransport.builder().outboundQueueBytes(0));
        assertThrows(IllegalArgumentException.class, () -> StdioTransport.builder().maxMessageBytes(0));
        assertThrows(IllegalArgumentException.class, () -> StdioTransport.builder().gracePeriod(Duration.ofMillis(-1)));
        StdioTransport.builder().gracePeriod(Duration.ZERO); // no grace is a value
    }

    @Test
    void onlyOneSourceOfTheWireIsTaken() {
        FakeProcess fake = FakeProcess.withPipes();
        ByteArrayInputStream in = new ByteArrayInputStream(new byte[0]);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StdioTransport.builder().streams(in, out).platform(fake));
        assertTrue(e.getMessage().contains("a platform after streams"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> StdioTransport.builder().platform(fake).streams(in, out));
        try (StdioClaim claim = StdioClaim.builder().platform(fake).acquire()) {
            assertThrows(IllegalStateException.class, () -> StdioTransport.builder().platform(fake).claim(claim));
            assertThrows(IllegalStateException.class, () -> StdioTransport.builder().claim(claim).platform(fake));
        }
        // A null is no way to undo a source: it throws, and the streams given stay the source.
        StdioTransport.Builder b = StdioTransport.builder().streams(in, out);
        assertThrows(NullPointerException.class, () -> b.platform(null));
        assertThrows(IllegalStateException.class, () -> b.platform(fake), "the streams are still the source");
        assertThrows(NullPointerException.class, () -> StdioTransport.builder().claim(null));
        assertThrows(NullPointerException.class, () -> StdioTransport.builder().streams(null, out));
    }
}
