package io.mcpwire.platform.test;

import io.mcpwire.platform.test.harness.BlockedThreads;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardOrigin;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The fake's Windows model keeps the rules the Windows providers rely on, and the rules run over it. */
class FakeWindowsTest {
    private static final Duration T = Duration.ofSeconds(10);
    private final FakeProcess fake = FakeProcess.builder().windows().build();
    private final PlatformDescriptors windows = fake.windows();

    @Test
    void dup2ClosesTheTargetsHandleSoTheSlotAndTheJvmsStreamNoLongerNameTheWire() throws Exception {
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            int nul = windows.openNullDevice(Access.WRITE);
            windows.duplicateOnto(nul, 1);
            windows.close(nul);
            assertEquals("null device (write)", fake.describe(1));
            assertEquals(Set.of(0), fake.wiresReachableByChild(), "no handle a child gets names the stdout wire");
            System.out.print("through the handle from start\n");
        } finally {
            jvm.exit();
        }
        assertEquals("", fake.client().drainText(), "the JVM's own System.out does not reach the client once its handle closed");
    }

    @Test
    void aProcessStartedWithoutStdinHasFdZeroOpenWithNoHandleAndAnEmptySlot() throws Exception {
        FakeProcess noStdin = FakeProcess.builder().windows().closedAtStart(0).build();
        assertEquals("no OS handle", noStdin.describe(0));
        assertEquals("closed", noStdin.stdHandle(0));
        assertEquals(StandardOrigin.CLOSED, noStdin.windows().standardOrigin(0), "the rules see it as closed");
        assertEquals(StandardOrigin.INHERITED, noStdin.windows().standardOrigin(1));
    }

    @Test
    void stderrMergedIntoStdoutIsAnotherHandleOnTheSamePipe() throws Exception {
        FakeProcess merged = FakeProcess.builder().windows().stderr(StderrMode.SAME_AS_STDOUT).build();
        assertTrue(merged.windows().sameFile(1, 2));
        assertTrue(!merged.windows().sameFile(0, 1));
    }

    @Test
    void aCRuntimeCallOnAClosedDescriptorFastFailsUnlessTheHandlerIsSuppressed() {
        FakeKernel kernel = fake.kernel;
        assertEquals(-1, new FakeWin32(kernel, true).close(77), "suppressed: EBADF");
        assertThrows(FakeWin32.FastFail.class, () -> new FakeWin32(kernel, false).close(77));
        assertEquals(1, fake.wireViolations().size(), "the fast fail is reported: " + fake.wireViolations());
    }

    @Test
    void noQueryIsMadeOnAPipeThatAThreadIsBlockedReading() throws Exception {
        int wire = windows.duplicateAboveStandard(0);
        DescriptorStream stream = windows.open(wire);
        CompletableFuture<Integer> read = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                read.complete(stream.read(new byte[16], 0, 16));
            } catch (Throwable t) {
                read.completeExceptionally(t);
            }
        }, "wire reader");
        reader.start();
        BlockedThreads.awaitWaitingIn(reader, "io.mcpwire.platform.test.FakeFile", T);

        for (int fd : new int[] {0, wire}) {
            // Not asked (GetFileType would wait for the read's lock): a pipe that can stall, the safe side.
            assertEquals(io.mcpwire.platform.FileIdentity.Kind.PIPE, windows.identity(fd).kind());
            int copy = windows.duplicate(fd); // _dup asks nothing of the handle: made all the same
            windows.close(copy);
        }
        assertEquals(List.of(), fake.wireViolations(), "no call that would hang was made");
        windows.identity(1); // another pipe: answered
        assertTrue(windows.sameFile(0, wire), "CompareObjectHandles does no I/O: answered");

        fake.client().send("x");
        assertEquals(2, read.get(T.toSeconds(), TimeUnit.SECONDS), "the read ends with the line");
        windows.identity(0); // no read pending any more
        stream.close();
        windows.close(wire);
        assertEquals(List.of(), fake.wireViolations());
    }
}
