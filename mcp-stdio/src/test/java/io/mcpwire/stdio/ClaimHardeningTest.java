package io.mcpwire.stdio;

import static io.mcpwire.stdio.FakeWire.REQUEST;
import static io.mcpwire.stdio.FakeWire.RESPONSE;
import static io.mcpwire.stdio.FakeWire.exchange;
import static io.mcpwire.stdio.FakeWire.readLine;
import static io.mcpwire.stdio.FakeWire.writeLine;
import static io.mcpwire.stdio.FakeWire.writeStray;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.platform.test.Call;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.TableSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Optional;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The claim's hardening rules: closed at start, fd 2 as the wire, stray targets, safe flushes, strict mode. */
class ClaimHardeningTest {

    private static StdioClaim.Builder on(FakeProcess fake) {
        return StdioClaim.builder().platform(fake);
    }

    private static List<Call> callsTouching(FakeProcess fake, int fd) {
        return fake.calls().stream().filter(c -> c.op() != Op.ORIGIN && (c.fd() == fd || c.source() == fd)).toList();
    }

    @Test
    void stdinClosedAtStartIsAbsentNeverTouchedAndReadsEndOfInput() throws IOException {
        FakeProcess fake = FakeProcess.builder().closedAtStart(0).build();
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = on(fake).acquire()) {
            assertEquals(ClaimState.ABSENT, claim.inputState());
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            assertTrue(claim.isIsolated(), "no wire on fd 0 to protect");
            assertNull(readLine(claim.input()), "end of input, not the JVM's module image");
            writeLine(claim.output(), RESPONSE);
            assertEquals(RESPONSE, fake.client().readLine(FakeWire.TIMEOUT));
        }
        assertEquals(List.of(), callsTouching(fake, 0), "fd 0, the JVM's own file, was never touched");
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
    }

    @Test
    void stdoutClosedAtStartIsAbsentAndEveryWriteFailsSayingSo() throws IOException {
        FakeProcess fake = FakeProcess.builder().closedAtStart(1).build();
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = on(fake).acquire()) {
            assertEquals(ClaimState.ABSENT, claim.outputState());
            IOException e = assertThrows(IOException.class, () -> writeLine(claim.output(), RESPONSE));
            assertTrue(e.getMessage().contains("fd 1 was closed when the process started"), e.getMessage());
            fake.client().send(REQUEST);
            assertEquals(REQUEST, readLine(claim.input()), "stdin still serves");
        }
        assertEquals(List.of(), callsTouching(fake, 1), "fd 1, the JVM's own file, was never touched");
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
    }

    @Test
    void stderrMergedIntoStdoutIsClaimedTooAndPutBack() throws IOException {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.SAME_AS_STDOUT).build();
        TableSnapshot before = fake.snapshot();
        try (StdioClaim claim = on(fake).acquire()) {
            assertTrue(claim.stderrIsWire());
            assertEquals("null device (write)", fake.describe(2));
            assertFalse(fake.inheritedDescriptors().stream().anyMatch(fd -> fd > 2), "every private duplicate is close-on-exec");
            writeStray(fake, 2, "a warning on stderr\n");
            writeStray(fake, 1, "a print on stdout\n");
            exchange(fake, claim);
        }
        assertEquals("", fake.client().drainText(), "nothing but the answer reached the wire");
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
        fake.assertWireAlwaysReachable();
    }

    @Test
    void strayOutputCanGoToAFileEvenWhenStderrIsTheWire() throws IOException {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.SAME_AS_STDOUT).build();
        String file = Path.of("stray.log").toString();
        try (StdioClaim claim = on(fake).strayOutput(StrayOutput.file(Path.of(file))).acquire()) {
            writeStray(fake, 1, "one\n");
            writeStray(fake, 2, "two\n");
            exchange(fake, claim);
        }
        assertEquals("one\ntwo\n", fake.fileText(file));
        assertEquals("", fake.client().drainText());
    }

    @Test
    void strayOutputCanBeDiscarded() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        try (StdioClaim claim = on(fake).strayOutput(StrayOutput.nullDevice()).acquire()) {
            assertEquals("null device (write)", fake.describe(1));
            writeStray(fake, 1, "gone\n");
            exchange(fake, claim);
        }
        assertEquals("", fake.stderrText());
    }

    @Test
    void strayOutputThatCannotOpenItsFileGoesToTheNullDevice() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        fake.faults().on(Op.OPEN_APPEND).always();
        try (StdioClaim claim = on(fake).strayOutput(StrayOutput.file(Path.of("x.log"))).acquire()) {
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            assertEquals("null device (write)", fake.describe(1));
        }
    }

    @Test
    void textBufferedInSystemOutBeforeTheClaimNeverReachesTheWire() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        // A System.out that writes fd 1 itself, as on POSIX, with a byte left in its buffer.
        withSystemOut(new PrintStream(new java.io.BufferedOutputStream(new Fd1(fake), 128), false), () -> {
            System.out.write('Z');
            try (StdioClaim claim = on(fake).acquire()) {
                exchange(fake, claim);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        assertEquals("", fake.client().drainText(), "nothing but the answer reached the client");
        assertEquals("Z", fake.stderrText(), "the buffered byte drained into the diversion");
    }

    @Test
    void aSystemOutWhoseFlushThrowsBreaksNeitherTheClaimNorItsRelease() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        withSystemOut(new PrintStream(OutputStream.nullOutputStream()) {
            @Override
            public void flush() {
                throw new IllegalStateException("a user's stream that throws on flush");
            }
        }, () -> {
            StdioClaim claim = on(fake).acquire();
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            claim.close();
            assertTrue(claim.isReleased());
        });
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
    }

    @Test
    void aProviderThatThrowsMidClaimTakesTheSafePathOfAnOsError() throws IOException {
        FakeProcess fake = FakeProcess.builder().detachedJvmStreams().build();
        TableSnapshot before = fake.snapshot();
        PlatformDescriptors failing = throwingOn(fake, "rebindStandardHandle", 1);
        try (StdioClaim claim = StdioClaim.builder().platform(failing).acquire()) {
            assertEquals(ClaimState.IN_PLACE, claim.inputState(), "fd 0 rolled back");
            assertEquals(ClaimState.DIVERTED, claim.outputState());
            exchange(fake, claim);
        }
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
    }

    /** A provider that cannot say what a move owes has that stream served in place, never moved without its duties. */
    @Test
    void aProviderWhoseDutiesCannotBeLearntServesThatStreamInPlace() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        PlatformDescriptors failing = throwingOn(fake, "standardHandleDuties", 1); // fd 0's claim asks first
        try (StdioClaim claim = StdioClaim.builder().platform(failing).acquire()) {
            assertEquals(ClaimState.IN_PLACE, claim.inputState());
            assertEquals(ClaimState.DIVERTED, claim.outputState(), "fd 1's claim learnt its duties");
            exchange(fake, claim);
        }
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
    }

    /**
     * A provider whose {@code moveStandard} returns without running the move moved nothing: no
     * stream may be counted as isolated, the wire still serves, and the table ends as it began.
     */
    @Test
    void aProviderThatSkipsTheMoveIsNeverCountedAsHavingMovedAnything() throws IOException {
        FakeProcess fake = FakeProcess.builder().detachedJvmStreams().build();
        TableSnapshot before = fake.snapshot();
        PlatformDescriptors skipping = (PlatformDescriptors) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PlatformDescriptors.class}, (proxy, m, args) -> {
                    Object result;
                    try {
                        result = m.invoke(fake, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (!m.getName().equals("standardHandleDuties")) {
                        return result;
                    }
                    StandardHandleDuties duties = ((Optional<?>) result).map(StandardHandleDuties.class::cast).orElseThrow();
                    return Optional.of(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {StandardHandleDuties.class},
                            (p, d, a) -> {
                                if (d.getName().equals("moveStandard")) {
                                    return null; // returns at once, the move never run
                                }
                                try {
                                    return d.invoke(duties, a);
                                } catch (InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            }));
                });
        try (StdioClaim claim = StdioClaim.builder().platform(skipping).acquire()) {
            assertFalse(claim.isIsolated(), "nothing moved, so nothing is isolated: " + claim);
            assertNotEquals(ClaimState.DIVERTED, claim.inputState(), claim::toString);
            assertNotEquals(ClaimState.DIVERTED, claim.outputState(), claim::toString);
            exchange(fake, claim);
        }
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
    }

    @Test
    void aClaimThatFailsHalfWayPutsBackWhatItTookAndRegistersNothing() throws IOException {
        FakeProcess fake = FakeProcess.builder().detachedJvmStreams().build();
        TableSnapshot before = fake.snapshot();
        PrintStream out = System.out;
        InputStream in = System.in;
        // The second question (the selection asks first; then fd 1's flush once it is diverted) throws.
        PlatformDescriptors failing = throwingOn(fake, "jvmStreamsFollowDescriptors", 2);
        assertThrows(IllegalStateException.class, () -> StdioClaim.builder().platform(failing).acquire());
        assertTrue(System.out == out, "System.out untouched");
        assertEquals(before.descriptors(), fake.snapshot().descriptors(), () -> before.differenceFrom(fake.snapshot()));
        try (StdioClaim next = on(fake).acquire()) {
            exchange(fake, next); // nothing was left registered
        } finally {
            System.setOut(out); // the Windows-style claim swapped both, and the release gave new ones
            System.setIn(in);
        }
    }

    @Test
    void requiredIsolationFailsFastSayingWhyAndLeavesNothingTaken() throws IOException {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.DUP_ABOVE_STANDARD).where(c -> c.fd() == 1);
        IsolationUnavailableException e = assertThrows(IsolationUnavailableException.class,
                () -> on(fake).isolation(Isolation.REQUIRED).acquire());
        assertTrue(e.getMessage().contains("fd 1: the private duplicate could not be made"), e.getMessage());
        assertEquals(before, fake.snapshot(), () -> before.differenceFrom(fake.snapshot()));
        try (StdioClaim next = on(fake).isolation(Isolation.REQUIRED).acquire()) {
            assertTrue(next.isIsolated());
        }
    }

    @Test
    void requiredIsolationWithoutAProviderFailsFast() {
        PlatformDescriptors unsupported = throwingOn(FakeProcess.withPipes(), "none", 0);
        PlatformDescriptors cannotRun = (PlatformDescriptors) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PlatformDescriptors.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "probe" -> io.mcpwire.platform.Probe.unavailable("not here");
                    default -> m.invoke(unsupported, args);
                });
        IsolationUnavailableException e = assertThrows(IsolationUnavailableException.class,
                () -> StdioClaim.builder().platform(cannotRun).isolation(Isolation.REQUIRED).acquire());
        assertTrue(e.getMessage().contains("not here"), e.getMessage());
    }

    /** {@code fake}, whose {@code nth} call of {@code method} (its standard-handle duties' too) throws. */
    private static PlatformDescriptors throwingOn(FakeProcess fake, String method, int nth) {
        return throwingOn(PlatformDescriptors.class, fake, method, nth, new int[1]);
    }

    private static <T> T throwingOn(Class<T> type, T target, String method, int nth, int[] seen) {
        return type.cast(Proxy.newProxyInstance(ClaimHardeningTest.class.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> {
            if (m.getName().equals(method) && ++seen[0] == nth) {
                throw new IllegalStateException(method + " blew up");
            }
            Object result;
            try {
                result = m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (m.getName().equals("standardHandleDuties")) {
                return ((Optional<?>) result).map(d -> throwingOn(StandardHandleDuties.class, (StandardHandleDuties) d, method, nth, seen));
            }
            return result;
        }));
    }

    private static void withSystemOut(PrintStream replacement, Runnable body) {
        PrintStream original = System.out;
        System.setOut(replacement);
        try {
            body.run();
        } finally {
            System.setOut(original);
        }
    }

    /** Writes whatever fd 1 of the fake is at the moment of the write, as the JVM's own stdout does. */
    private static final class Fd1 extends OutputStream {
        private final FakeProcess fake;

        Fd1(FakeProcess fake) {
            this.fake = fake;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writeStray(fake, 1, new String(b, off, len, StandardCharsets.UTF_8));
        }
    }
}
