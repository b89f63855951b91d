package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.platform.test.WindowsVariant;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stray output through the claim's drain: a stderr that is never read blocks no writer of stray
 * output, on fd 1 or fd 2, on the POSIX face and in every shipped Windows variant; what is dropped
 * is counted in the log; a stderr that is read loses nothing and keeps the order.
 */
class StrayDrainTest {
    /** Long enough for any machine to copy a few MiB; a writer that blocks on stderr never returns. */
    private static final Duration NO_HANG = Duration.ofSeconds(30);
    private static final byte[] MIB = lines('o', 1 << 20);

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            logged.add(new SimpleFormatter().formatMessage(r));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLog() {
        Logger.getLogger("io.mcpwire.stdio").addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        Logger.getLogger("io.mcpwire.stdio").removeHandler(capture);
    }

    @Test
    void aStderrNobodyReadsBlocksNoWriterOfFd1OrFd2AndTheDropIsCounted() throws Exception {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.UNREAD_PIPE).makesPipes().build();
        TableSnapshot before = fake.snapshot();
        StdioClaim claim = StdioClaim.builder().platform(fake.provider()).acquire();
        assertEquals(ClaimState.DIVERTED, claim.stderrState(), "fd 2 is guarded");

        assertTimeoutPreemptively(NO_HANG, () -> {
            write(fake, 1, MIB); // as System.out, native code or an inheritIO() child would
            write(fake, 2, lines('e', 1 << 20)); // as the server's logging would
        }, "a writer of stray output waited on the unread stderr");
        claim.output().write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", fake.client().drainText(), "the wire is untouched");

        claim.close();
        assertEquals(ClaimState.KEPT_DIVERTED, claim.stderrState(), "fd 2 stays on the drain while stderr is unread");
        assertFalse(claim.isReleased());
        assertTrue(fake.isOnWire(1), "fd 1 is the wire again");

        fake.hostReadsStderr();
        claim.close();
        assertTrue(claim.isReleased(), "released once stderr is read");
        assertEquals(before.descriptors(), fake.snapshot().descriptors(), "the drain left nothing open");
        assertTrue(fake.stderrText().startsWith(new String(MIB, 0, 4096, StandardCharsets.US_ASCII)),
                "what was kept is the start of the burst, in order");
        assertTrue(logged.stream().anyMatch(l -> l.matches("\\d+ bytes of stray output dropped: stderr was not being read.*")),
                () -> "the drop count is logged: " + logged);
        assertTrue(fake.stderrText().matches("(?s).*\nmcpwire: \\d+ bytes of stray output dropped: stderr was not being read \\(so far\\)\n.*"),
                "and written into stderr where the gap is, once stderr drains again");
    }

    @Test
    void aStderrThatIsReadLosesNothingAndKeepsTheOrderAcrossFd1AndFd2() throws Exception {
        FakeProcess fake = FakeProcess.builder().makesPipes().build();
        TableSnapshot before = fake.snapshot();
        StdioClaim claim = StdioClaim.builder().platform(fake.provider()).acquire();
        byte[] first = lines('a', 300 * 1024);
        byte[] second = lines('b', 300 * 1024);
        byte[] third = lines('c', 64);
        write(fake, 1, first);
        write(fake, 2, second);
        write(fake, 1, third);
        claim.close();
        assertTrue(claim.isReleased());
        assertEquals(new String(first, StandardCharsets.US_ASCII) + new String(second, StandardCharsets.US_ASCII)
                + new String(third, StandardCharsets.US_ASCII), fake.stderrText());
        assertTrue(logged.stream().noneMatch(l -> l.contains("dropped")), () -> "nothing dropped: " + logged);
        assertEquals(before.descriptors(), fake.snapshot().descriptors());
    }

    @Test
    void directLeavesFd2AloneWhileFd1StillNeverBlocks() throws Exception {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.UNREAD_PIPE).makesPipes().build();
        StdioClaim claim = StdioClaim.builder().platform(fake.provider()).stderr(StderrPolicy.DIRECT).acquire();
        assertNull(claim.stderrState(), "fd 2 is left as the host gave it");
        assertTimeoutPreemptively(NO_HANG, () -> write(fake, 1, MIB), "fd 1's stray output waited on the unread stderr");
        fake.hostReadsStderr();
        claim.close();
        assertTrue(claim.isReleased());
    }

    @Test
    void withoutAPipeStrayOutputGoesToStderrDirectlyAndTheClaimStillHolds() throws Exception {
        FakeProcess fake = FakeProcess.builder().makesPipes().build();
        fake.faults().on(Op.PIPE);
        TableSnapshot before = fake.snapshot();
        StdioClaim claim = StdioClaim.builder().platform(fake.provider()).acquire();
        assertTrue(claim.isIsolated());
        assertNull(claim.stderrState(), "no drain, so fd 2 is not guarded");
        write(fake, 1, "stray\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals("stray\n", fake.stderrText(), "fd 1 writes stderr itself");
        claim.close();
        assertTrue(claim.isReleased());
        assertEquals(before.descriptors(), fake.snapshot().descriptors());
    }

    static Stream<WindowsVariant> variants() {
        return MatrixVariants.of(false).stream();
    }

    @ParameterizedTest
    @MethodSource("variants")
    void onWindowsTheJvmsOwnStreamsNeverBlockOnAnUnreadStderr(WindowsVariant variant) throws Exception {
        FakeProcess fake = FakeProcess.builder().windows(variant).stderr(StderrMode.UNREAD_PIPE).makesPipes().build();
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            StdioClaim claim = StdioClaim.builder().platform(fake.provider()).acquire();
            assertEquals(ClaimState.DIVERTED, claim.stderrState(), "fd 2 is guarded");
            String text = new String(MIB, StandardCharsets.US_ASCII);
            assertTimeoutPreemptively(NO_HANG, () -> {
                System.out.print(text);
                System.out.flush();
                System.err.print(text);
                System.err.flush();
            }, "System.out or System.err waited on the unread stderr");
            claim.close();
            assertEquals(ClaimState.KEPT_DIVERTED, claim.stderrState());
            fake.hostReadsStderr();
            claim.close();
            assertTrue(claim.isReleased());
            assertTrue(fake.stderrText().startsWith(text.substring(0, 4096)), "the start of the burst, in order");
            assertTrue(fake.wireViolations().isEmpty(), () -> fake.wireViolations().toString());
        } finally {
            jvm.exit();
        }
    }

    private static void write(FakeProcess fake, int fd, byte[] bytes) throws Exception {
        try (DescriptorStream s = fake.provider().open(fd)) {
            s.write(bytes, 0, bytes.length);
        }
    }

    /** {@code size} bytes of 64-byte lines of {@code c}. */
    private static byte[] lines(char c, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i % 64 == 63 ? '\n' : c);
        }
        return b;
    }
}
