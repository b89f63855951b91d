package io.mcpwire.platform.test.kit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.BlockedThreads;
import java.nio.channels.AsynchronousCloseException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link PlatformDescriptors} contract as a JUnit 5 suite that any provider runs, mcpwire's
 * own and ones users write: extend it, say how to make a pipe in the provider's table and how to
 * tell that a thread is blocked in the provider's wait, and every test below runs against it.
 *
 * <pre>{@code
 * class MyProviderContractTest extends ProviderContract {
 *     protected PlatformDescriptors provider() { return new MyProvider(); }
 *     protected int[] pipe() throws DescriptorException { ... read end, write end ... }
 *     protected void awaitBlocked(Thread t) { BlockedThreads.awaitInNativeCall(t, "poll", Duration.ofSeconds(10)); }
 * }
 * }</pre>
 *
 * <p>It works away from fd 0, 1 and 2, on pipes the subclass makes and on the null device, so it
 * runs inside a test JVM whose own standard streams the test runner uses. The claim on real
 * standard descriptors is tested in child JVMs (see {@code docs/platforms.md}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ProviderContract {
    /** A descriptor number far above what a JVM allocates, so that no other thread reuses it. */
    private static final int FAR = 1000;

    private PlatformDescriptors provider;
    private int readEnd = -1;
    private int writeEnd = -1;

    /** For subclasses. */
    protected ProviderContract() {
    }

    /** The provider under test; called once per test. */
    protected abstract PlatformDescriptors provider();

    /** A new pipe in the provider's table: {read end, write end}. The suite closes both. */
    protected abstract int[] pipe() throws DescriptorException;

    /**
     * Returns once {@code thread} is blocked in the provider's wait inside a read or write (for
     * example {@code BlockedThreads.awaitInNativeCall(thread, "poll", timeout)}), so that a wake-up
     * is tested on a call that has really blocked.
     */
    protected abstract void awaitBlocked(Thread thread);

    /**
     * Whether {@code identity} tells a descriptor's file (so that a duplicate's identity equals
     * the original's) and its access mode, as on POSIX. A provider whose identities are only its
     * handles and that takes every standard handle as writable (Windows) says false; it is then
     * held to {@code sameFile} alone.
     */
    protected boolean identityTellsFileAndAccess() {
        return true;
    }

    @BeforeEach
    final void openPipe() throws DescriptorException {
        provider = provider();
        assertEquals(Probe.available(), provider.probe(), () -> provider.name() + " cannot run here");
        int[] ends = pipe();
        readEnd = ends[0];
        writeEnd = ends[1];
    }

    @AfterEach
    final void closePipe() {
        for (int fd : new int[] {readEnd, writeEnd}) {
            if (fd >= 0) {
                try {
                    provider.close(fd);
                } catch (DescriptorException alreadyClosed) {
                    // closed by the test
                }
            }
        }
    }

    @Test
    void describeNamesADescriptorForDiagnosticsAndNeverThrows() throws Exception {
        String open = provider.describe(readEnd);
        assertTrue(open != null && !open.isBlank(), "describe(" + readEnd + ") says something");
        provider.close(writeEnd);
        String closed = provider.describe(writeEnd);
        writeEnd = -1;
        assertTrue(closed != null && !closed.isBlank(), "describe of a closed descriptor says something too");
    }

    /** The probe is the one place that loads native code, once: asked again, the same answer. */
    @Test
    void theProbeSaysAvailableAndSaysItAgain() {
        assertEquals(Probe.available(), provider.probe());
        assertEquals(Probe.available(), provider.probe());
        assertFalse(provider.name().isBlank());
    }

    /** The engine passes over a provider built for another version of the SPI. */
    @Test
    void itDeclaresTheVersionOfTheSpiItWasBuiltFor() {
        assertEquals(PlatformDescriptors.SPI_VERSION, provider.spiVersion(),
                () -> provider.name() + " was built for SPI version " + provider.spiVersion());
    }

    @Test
    void duplicatesLandAboveTheStandardRangeAndNameTheSameFile() throws Exception {
        int above = provider.duplicateAboveStandard(readEnd);
        int lowest = provider.duplicate(writeEnd);
        int nul = provider.openNullDevice(Access.READ);
        try {
            assertTrue(above > 2, "duplicateAboveStandard gave " + above);
            assertTrue(provider.sameFile(above, readEnd));
            if (identityTellsFileAndAccess()) {
                assertTrue(provider.identity(above).sameFileAs(provider.identity(readEnd)));
            }
            assertTrue(provider.sameFile(lowest, writeEnd));
            assertFalse(provider.sameFile(nul, readEnd), "the null device is not the pipe");
        } finally {
            provider.close(above);
            provider.close(lowest);
            provider.close(nul);
        }
    }

    @Test
    void identityTellsPipeEndsAndTheNullDevice() throws Exception {
        FileIdentity r = provider.identity(readEnd);
        FileIdentity w = provider.identity(writeEnd);
        assertEquals(FileIdentity.Kind.PIPE, r.kind());
        assertEquals(FileIdentity.Kind.PIPE, w.kind());
        assertTrue(w.writable(), "a pipe's write end is writable");
        if (identityTellsFileAndAccess()) {
            assertFalse(r.writable(), "a pipe's read end is not writable");
        }
        for (Access access : Access.values()) {
            int nul = provider.openNullDevice(access);
            try {
                assertEquals(FileIdentity.Kind.NULL_DEVICE, provider.identity(nul).kind());
                if (identityTellsFileAndAccess()) {
                    assertEquals(access == Access.WRITE, provider.identity(nul).writable());
                }
            } finally {
                provider.close(nul);
            }
        }
    }

    @Test
    void duplicateOntoMovesAFileAndErrorsNameTheCallTheDescriptorAndTheOsError() throws Exception {
        provider.duplicateOnto(writeEnd, FAR);
        provider.duplicateOnto(readEnd, FAR);
        assertTrue(provider.sameFile(FAR, readEnd));
        provider.close(FAR);
        DescriptorException e = assertThrows(DescriptorException.class, () -> provider.close(FAR));
        assertEquals(FAR, e.descriptor());
        assertNotEquals(0, e.errorCode(), "the OS error code");
        assertTrue(e.getMessage().contains("close") && e.getMessage().contains(String.valueOf(FAR)), e.getMessage());
        assertThrows(DescriptorException.class, () -> provider.identity(FAR));
        assertThrows(DescriptorException.class, () -> provider.duplicateOnto(FAR, FAR + 1));
        assertThrows(DescriptorException.class, () -> provider.duplicateAboveStandard(FAR));
    }

    @Test
    void streamsCarryBytesThroughPartialReadsAndWritesAndReportEndOfInput() throws Exception {
        byte[] big = new byte[300_000]; // more than a pipe holds: the writer loops over partial writes
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        try (DescriptorStream in = provider.open(readEnd); DescriptorStream out = provider.open(writeEnd)) {
            assertEquals(readEnd, in.descriptor());
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    out.write(big, 0, big.length);
                    out.close(); // a stream may hold the pipe open through a description of its own
                    provider.close(writeEnd);
                    writeEnd = -1;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            byte[] got = new byte[big.length];
            int n = 0;
            int r;
            while (n < got.length && (r = in.read(got, n, Math.min(8192, got.length - n))) > 0) {
                n += r;
            }
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(-1, in.read(new byte[1], 0, 1), "end of input once the writer's stream and descriptor are closed");
            assertEquals(0, in.read(new byte[1], 0, 0), "a read of nothing reads nothing");
            assertEquals(big.length, n);
            assertArrayEquals(big, got);
        }
    }

    @Test
    void aReadBlockedOnAnIdlePipeIsWokenAndLaterCallsFail() throws Exception {
        try (DescriptorStream in = provider.open(readEnd)) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread t = BlockedThreads.start(() -> in.read(new byte[16], 0, 16), outcome);
            awaitBlocked(t);
            in.wakeUp();
            assertInstanceOf(AsynchronousCloseException.class, outcome.get(10, TimeUnit.SECONDS));
            assertThrows(AsynchronousCloseException.class, () -> in.read(new byte[1], 0, 1));
            in.wakeUp(); // idempotent
        }
    }

    @Test
    void aWriteBlockedOnAFullPipeIsWoken() throws Exception {
        try (DescriptorStream out = provider.open(writeEnd)) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread t = BlockedThreads.start(() -> out.write(new byte[10_000_000], 0, 10_000_000), outcome); // nobody reads
            awaitBlocked(t);
            out.wakeUp();
            assertInstanceOf(AsynchronousCloseException.class, outcome.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void writingToAPipeWhoseReaderHasGoneFailsWithTheOsErrorNotACrash() throws Exception {
        provider.close(readEnd);
        readEnd = -1;
        try (DescriptorStream out = provider.open(writeEnd)) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> out.write(new byte[] {'x'}, 0, 1));
            assertNotEquals(0, e.errorCode());
            assertEquals(writeEnd, e.descriptor());
        }
    }

    /**
     * {@code pipe()} is optional: a provider either refuses it, naming the call, or gives two ends
     * of its own above the standard range that carry bytes in order and end at end of input once
     * the write end is closed.
     */
    @Test
    void aPipeOfItsOwnCarriesBytesInOrderOrIsRefusedByName() throws Exception {
        PipeEnds ends;
        try {
            ends = provider.pipe();
        } catch (DescriptorException refused) {
            assertTrue(refused.operation().startsWith("pipe") || refused.operation().startsWith("_pipe"),
                    () -> "the refusal names the call: " + refused.getMessage());
            return;
        }
        try (DescriptorStream in = provider.open(ends.readEnd()); DescriptorStream out = provider.open(ends.writeEnd())) {
            assertFalse(provider.sameFile(ends.readEnd(), readEnd), "a new pipe, not the test's");
            byte[] sent = "first, then second".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            out.write(sent, 0, sent.length);
            out.close();
            provider.close(ends.writeEnd());
            byte[] got = new byte[sent.length];
            int n = 0;
            for (int r; n < got.length && (r = in.read(got, n, got.length - n)) > 0; ) {
                n += r;
            }
            assertArrayEquals(sent, got);
            assertEquals(-1, in.read(new byte[1], 0, 1), "end of input once the only write end is closed");
        } finally {
            provider.close(ends.readEnd());
        }
    }
}
