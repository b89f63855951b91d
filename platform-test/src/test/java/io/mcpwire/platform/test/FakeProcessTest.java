package io.mcpwire.platform.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FakeProcessTest {
    private static final Duration T = Duration.ofSeconds(10);

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void startsWithTheWireOnZeroAndOneAndStderrOnTwo() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        assertEquals("client->server pipe (read end)", fake.describe(0));
        assertEquals("server->client pipe (write end)", fake.describe(1));
        assertEquals("stderr", fake.describe(2));
        assertTrue(fake.isOnWire(0) && fake.isOnWire(1));
        assertEquals(FileIdentity.Kind.PIPE, fake.identity(0).kind());
        assertEquals(FileIdentity.Kind.SOCKET, FakeProcess.builder().sockets().build().identity(1).kind());
    }

    @Test
    void allocatesTheLowestFreeDescriptorSoAClosedStderrIsReused() throws Exception {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.CLOSED).build();
        assertEquals(2, fake.openNullDevice(Access.READ));
        assertEquals(3, fake.duplicate(0));
        assertEquals(4, fake.duplicateAboveStandard(1));
        fake.close(3);
        assertEquals(3, fake.duplicateAboveStandard(0));
    }

    @Test
    void duplicatesAreCloseOnExecAndDup2ClearsItOnItsTarget() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        int p = fake.duplicateAboveStandard(0);
        assertTrue(fake.isCloseOnExec(p));
        assertFalse(fake.inheritedDescriptors().contains(p));
        fake.duplicateOnto(p, 2);
        assertFalse(fake.isCloseOnExec(2));
        assertTrue(fake.refersToWireOf(2, 0));
        assertTrue(fake.identity(0).sameFileAs(fake.identity(p)), "same file, same identity");
        assertFalse(fake.identity(0).sameFileAs(fake.identity(1)));
        assertFalse(fake.identity(0).writable());
        assertTrue(fake.identity(1).writable());
    }

    @Test
    void operationsOnClosedDescriptorsFailWithEbadf() {
        FakeProcess fake = FakeProcess.withPipes();
        DescriptorException e = assertThrows(DescriptorException.class, () -> fake.close(9));
        assertEquals(9, e.errorCode());
        assertEquals("close(9)", e.operation());
        assertTrue(e.getMessage().contains("EBADF"), e.getMessage());
        assertThrows(DescriptorException.class, () -> fake.duplicateOnto(9, 0));
        assertThrows(DescriptorException.class, () -> fake.identity(9));
    }

    @Test
    void thePipeReportsEndOfInputOnlyAfterTheClientClosesAndTheDataIsRead() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        fake.client().send("hello");
        fake.client().closeInput();
        try (DescriptorStream in = fake.open(0)) {
            byte[] b = new byte[64];
            assertEquals(6, in.read(b, 0, 64));
            assertEquals(-1, in.read(b, 0, 64));
        }
    }

    @Test
    void serverOutputReachesTheClientAndEndsWhenEveryWriteEndCloses() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        try (DescriptorStream out = fake.open(1)) {
            out.write(utf8("one\ntwo\n"), 0, 8);
        }
        assertEquals(List.of("one", "two"), fake.client().readLines(2, T));
        fake.close(1);
        assertEquals(null, fake.client().readLine(T));
        assertTrue(fake.client().serverClosedOutput());
    }

    @Test
    void writingToADisconnectedClientFailsWithEpipe() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        fake.client().disconnect();
        try (DescriptorStream out = fake.open(1)) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> out.write(utf8("x"), 0, 1));
            assertTrue(e.getMessage().contains("EPIPE"), e.getMessage());
        }
    }

    @Test
    void aBlockedReadIsWokenAndLaterCallsFail() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        DescriptorStream in = fake.open(0);
        CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
            try {
                in.read(new byte[4], 0, 4);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        while (fake.calls().stream().noneMatch(c -> c.op() == Op.READ)) {
            Thread.onSpinWait();
        }
        in.wakeUp();
        assertInstanceOf(AsynchronousCloseException.class, reader.get(10, TimeUnit.SECONDS));
        assertThrows(AsynchronousCloseException.class, () -> in.read(new byte[4], 0, 4));
    }

    @Test
    void aBoundedPipeBlocksTheWriterUntilTheClientReads() throws Exception {
        FakeProcess fake = FakeProcess.builder().pipeCapacity(4).build();
        DescriptorStream out = fake.open(1);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                out.write(utf8("abcdefgh\n"), 0, 9);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        assertEquals("abcdefgh", fake.client().readLine(T));
        writer.get(10, TimeUnit.SECONDS);
    }

    @Test
    void faultsFailTheNthMatchingCallOnceOrAlwaysAndLogEveryCall() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        FaultRule second = fake.faults().on(Op.DUP).where(c -> c.fd() == 0).nth(2);
        int a = fake.duplicate(0);
        fake.duplicate(1); // does not match
        assertThrows(DescriptorException.class, () -> fake.duplicate(0));
        int b = fake.duplicate(0); // once only
        assertEquals(1, second.fired());
        fake.faults().on(Op.IDENTITY).always().errno(13, "EACCES (scripted)");
        for (int i = 0; i < 3; i++) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> fake.identity(0));
            assertEquals(13, e.errorCode());
        }
        List<Call> calls = fake.calls();
        assertEquals(Op.DUP, calls.get(0).op());
        assertEquals("duplicate(0)", calls.get(0).describe());
        assertEquals(7, calls.size());
        assertTrue(a > 2 && b > 2);
    }

    @Test
    void aDestroyingDup2ClosesItsTargetThenFailsAndAFailedCloseStillFrees() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        int p = fake.duplicateAboveStandard(0);
        fake.faults().on(Op.DUP2).destroyingTarget();
        assertThrows(DescriptorException.class, () -> fake.duplicateOnto(2, 0));
        assertEquals("closed", fake.describe(0));
        fake.faults().on(Op.CLOSE);
        assertThrows(DescriptorException.class, () -> fake.close(p));
        assertEquals("closed", fake.describe(p), "as on Linux, a failed close has freed the descriptor");
    }

    @Test
    void theWireCheckNamesTheFirstCallThatMadeTheWireUnreachable() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        int p = fake.duplicateAboveStandard(0);
        int n = fake.openNullDevice(Access.READ);
        fake.duplicateOnto(n, 0);
        fake.assertWireAlwaysReachable(); // p still holds it
        fake.close(p);
        AssertionError e = assertThrows(AssertionError.class, fake::assertWireAlwaysReachable);
        assertTrue(e.getMessage().contains("close(" + p + ")"), e.getMessage());
        assertTrue(e.getMessage().contains("stdin wire"), e.getMessage());
    }

    @Test
    void snapshotsShowLeaksAndMoves() throws Exception {
        FakeProcess fake = FakeProcess.withPipes();
        TableSnapshot before = fake.snapshot();
        int p = fake.duplicateAboveStandard(1);
        TableSnapshot after = fake.snapshot();
        assertNotEquals(before, after);
        assertTrue(before.differenceFrom(after).contains("fd " + p + ": closed -> server->client pipe"), before.differenceFrom(after));
        fake.close(p);
        assertEquals(before, fake.snapshot());
    }

    @Test
    void rebindingPointsTheStandardHandleSlotAtTheDescriptorsFile() throws Exception {
        FakeProcess fake = FakeProcess.builder().detachedJvmStreams().build();
        assertFalse(fake.jvmStreamsFollowDescriptors());
        int n = fake.openNullDevice(Access.READ);
        int p = fake.duplicateAboveStandard(0);
        fake.duplicateOnto(n, 0);
        assertEquals("null device (read)", fake.describe(0));
        assertEquals("client->server pipe (read end)", fake.stdHandle(0), "the slot is not rebound yet");
        fake.rebindStandardHandle(0);
        assertEquals("null device (read)", fake.childStdio().get(0));
        fake.duplicateOnto(p, 0);
        fake.rebindStandardHandle(0);
        assertEquals("client->server pipe (read end)", fake.stdHandle(0));
    }

    @Test
    void aRegularFileOnStdinReadsItsContentThenEndOfInput() throws Exception {
        FakeProcess fake = FakeProcess.builder().stdinContent(utf8("abc")).build();
        try (DescriptorStream in = fake.open(0)) {
            byte[] b = new byte[8];
            assertEquals(3, in.read(b, 0, 8));
            assertEquals(-1, in.read(b, 0, 8));
        }
        assertEquals(FileIdentity.Kind.FILE, fake.identity(0).kind());
    }

    @Test
    void theSharedFakeIsNeverChosenAutomatically() {
        assertTrue(new SharedFakeProvider().priority() < 0);
        assertEquals("fake", new SharedFakeProvider().name());
        FakeProcess mine = FakeProcess.withPipes();
        FakeProcess.setShared(mine);
        try {
            assertSame(mine.descriptorTable(), new SharedFakeProvider().descriptorTable());
        } finally {
            FakeProcess.setShared(null);
        }
    }
}
