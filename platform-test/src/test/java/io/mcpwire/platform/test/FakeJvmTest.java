package io.mcpwire.platform.test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The JVM's streams over a fake follow its descriptors, and the fake's exit ends the client's output. */
class FakeJvmTest {
    private static final Duration T = Duration.ofSeconds(10);

    @Test
    void systemOutWritesWhateverFdOneIsAtTheTimeAndExitPutsTheJvmsStreamsBack() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        PrintStream testOut = System.out;
        InputStream testIn = System.in;
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            System.out.print("before\n");
            assertEquals("before", fake.client().readLine(T));
            int saved = fake.duplicateAboveStandard(1);
            fake.duplicateOnto(2, 1); // what a claim does: fd 1 writes stderr
            System.out.println("during");
            assertEquals("during" + System.lineSeparator(), fake.stderrText(), "println ends the line as this platform does");
            int nul = fake.openNullDevice(Access.READ);
            fake.duplicateOnto(nul, 0);
            assertEquals(-1, System.in.read(), "fd 0 reads the null device");
            fake.duplicateOnto(saved, 1);
            System.out.print("unflushed");
        } finally {
            jvm.exit();
        }
        assertSame(testOut, System.out);
        assertSame(testIn, System.in);
        assertArrayEquals("unflushed".getBytes(StandardCharsets.UTF_8), fake.client().fromServer().readAllBytes(),
                "flushed at exit onto the restored fd 1, then end of output");
        assertNull(fake.client().readLine(T));
        assertTrue(fake.client().serverClosedOutput());
    }

    @Test
    void awaitTableSeesTheTableComeBack() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            int saved = fake.duplicateAboveStandard(1);
            assertFalse(jvm.awaitTable(before, Duration.ofMillis(1)));
            fake.close(saved);
            assertTrue(jvm.awaitTable(before, T));
        } finally {
            jvm.exit();
        }
    }
}
