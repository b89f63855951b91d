package io.mcpwire.platform.test;

import io.mcpwire.platform.test.harness.BlockedThreads;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What differs between the shipped Windows variants, as the model keeps it. */
class WindowsVariantTest {
    private static final Duration T = Duration.ofSeconds(10);
    private static final String STDOUT_WIRE = "server->client pipe (write end)";

    private static WindowsVariant variant(WindowsVariant.Dup2Order order, WindowsVariant.AppType type,
                                          WindowsVariant.HandleReuse reuse) {
        return new WindowsVariant(order, type, false, reuse);
    }

    /** Diverts fd 1 to the null device, then makes one more handle, as a claim's next private duplicate would. */
    private static String whatTheNextHandleTakes(WindowsVariant v) throws Exception {
        FakeProcess fake = FakeProcess.builder().windows(v).build();
        int nul = fake.win32().open("NUL", 1);
        fake.win32().dup2(nul, 1);
        fake.win32().close(nul);
        fake.win32().duplicateHandle(fake.win32().getOsfHandle(0), false);
        return fake.jvmHandle(1);
    }

    @Test
    void closeFirstHandsTheFreedValueStraightBackToTheTargetWhileDuplicateFirstFreesItForTheNextHandle() throws Exception {
        assertEquals("null device (write)", whatTheNextHandleTakes(variant(WindowsVariant.Dup2Order.CLOSE_FIRST,
                WindowsVariant.AppType.GUI, WindowsVariant.HandleReuse.LOWEST_FIRST)),
                "close first: _dup2's own duplicate takes the value it freed, so System.out's value names the diversion");
        assertEquals("client->server pipe (read end)", whatTheNextHandleTakes(variant(WindowsVariant.Dup2Order.DUPLICATE_FIRST,
                WindowsVariant.AppType.GUI, WindowsVariant.HandleReuse.LOWEST_FIRST)),
                "duplicate first: the freed value goes to the next handle, here one on the stdin wire");
    }

    @Test
    void theReuseOrderDecidesWhichFreedValueComesBack() throws Exception {
        for (WindowsVariant.HandleReuse reuse : WindowsVariant.HandleReuse.values()) {
            FakeProcess fake = FakeProcess.builder().windows(variant(WindowsVariant.Dup2Order.DUPLICATE_FIRST,
                    WindowsVariant.AppType.CONSOLE, reuse)).build();
            FakeWin32 w = fake.win32();
            long a = w.duplicateHandle(w.getOsfHandle(0), false);
            long b = w.duplicateHandle(w.getOsfHandle(0), false);
            long c = w.duplicateHandle(w.getOsfHandle(0), false);
            w.closeHandle(b);
            w.closeHandle(a);
            w.closeHandle(c);
            long next = w.duplicateHandle(w.getOsfHandle(0), false);
            long expected = switch (reuse) {
                case LOWEST_FIRST -> a;
                case MOST_RECENT_FIRST, PER_CPU_LIFO -> c; // one thread, one processor: its own list, a stack
                case LEAST_RECENT_FIRST -> b;
            };
            assertEquals(expected, next, reuse.toString());
        }
    }

    @Test
    void aConsoleProgramsRuntimeKeepsTheSlotsInStepAndAGuiProgramsDoesNot() throws Exception {
        for (WindowsVariant.AppType type : WindowsVariant.AppType.values()) {
            FakeProcess fake = FakeProcess.builder().windows(variant(WindowsVariant.Dup2Order.DUPLICATE_FIRST, type,
                    WindowsVariant.HandleReuse.LOWEST_FIRST)).build();
            int nul = fake.win32().open("NUL", 1);
            fake.win32().dup2(nul, 1);
            assertEquals(type == WindowsVariant.AppType.CONSOLE ? "null device (write)" : "stale handle", fake.stdHandle(1), type.toString());
            fake.win32().close(1);
            assertEquals(type == WindowsVariant.AppType.CONSOLE ? "closed" : "stale handle", fake.stdHandle(1),
                    type + ": _free_osfhnd empties the slot of a console program");
        }
    }

    @Test
    void stdoutAndStderrOnOneHandleValueKeepItWhileEitherIsOpen() throws Exception {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.SAME_AS_STDOUT)
                .windows(WindowsVariant.DEFAULT.withSharedStdoutStderr(true)).build();
        FakeWin32 w = fake.win32();
        assertEquals(w.getOsfHandle(1), w.getOsfHandle(2), "one value on both");
        assertEquals(0, w.close(1));
        assertEquals(STDOUT_WIRE, fake.describe(2), "closing fd 1 left the handle to fd 2");
        assertEquals(STDOUT_WIRE, fake.jvmHandle(1), "and so System.out's value still names the wire");
        assertEquals(0, w.close(2));
        assertEquals("closed", fake.jvmHandle(1), "the last of the two closed it");
    }

    @Test
    void aJavaChildGetsTheJvmsStartUpValuesAndAFailedDup2DuplicateFirstDestroysNothing() throws Exception {
        FakeProcess fake = FakeProcess.builder().windows().build();
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            FakeWin32 w = fake.win32();
            int nul = w.open("NUL", 1);
            w.dup2(nul, 1);
            FakeChild child = jvm.startInheritIoChild();
            assertEquals(List.of("client->server pipe (read end)", "none", "stderr"), child.stdio(),
                    "the child gets System.out's start-up value, which _dup2 closed, not fd 1's diversion");
            assertEquals(Set.of(0), child.wiresReached());
            FakeChild piped = jvm.startChild(new ProcessBuilder("x"));
            assertEquals(Set.of(), piped.wiresReached(), "a child on pipes of its own reaches nothing of the process's");
        } finally {
            jvm.exit();
        }
    }

    @Test
    void aReadPendingInSystemInHoldsUpQueriesOnItsPipeUntilCancelIoExEndsIt() throws Exception {
        FakeProcess fake = FakeProcess.builder().windows().build();
        FakeJvm jvm = FakeJvm.install(fake);
        InputStream in = System.in;
        try {
            CompletableFuture<Object> read = new CompletableFuture<>();
            Thread reader = new Thread(() -> {
                try {
                    read.complete(in.read());
                } catch (Throwable t) {
                    read.complete(t);
                }
            }, "System.in reader");
            reader.start();
            BlockedThreads.awaitWaitingIn(reader, "io.mcpwire.platform.test.FakeFile", T);
            jvm.watchForHangs();
            fake.win32().getFileType(fake.win32().getOsfHandle(0));
            assertEquals(1, fake.wireViolations().size(), "GetFileType behind System.in's read would hang: " + fake.wireViolations());
            assertTrue(fake.wireViolations().get(0).contains("file object's lock"), fake.wireViolations().get(0));
            assertTrue(fake.win32().cancelIo(fake.win32().getOsfHandle(0)), "CancelIoEx on any handle of the pipe ends it");
            Object outcome = read.get(T.toSeconds(), TimeUnit.SECONDS);
            assertTrue(outcome instanceof IOException && ((IOException) outcome).getMessage().contains("ERROR_OPERATION_ABORTED"),
                    String.valueOf(outcome));
            assertFalse(fake.win32().cancelIo(fake.win32().getOsfHandle(0)), "nothing is pending now");
        } finally {
            jvm.exit();
        }
    }

    @Test
    void everyShippedCombinationIsListedOnce() {
        assertEquals(16, WindowsVariant.shipped(false).size());
        assertEquals(32, WindowsVariant.shipped(true).size());
        assertEquals(32, Set.copyOf(WindowsVariant.shipped(true)).size());
        assertThrows(NullPointerException.class, () -> FakeProcess.builder().windows(null));
        assertEquals("duplicate-first,console,lowest-first", WindowsVariant.WINE.toString());
    }

    @Test
    void theCoveringSampleTakesEveryValueOfEveryComponent() {
        for (boolean stderrIsStdout : new boolean[] {false, true}) {
            List<WindowsVariant> sample = WindowsVariant.covering(stderrIsStdout);
            assertTrue(WindowsVariant.shipped(stderrIsStdout).containsAll(sample), "only variants that ship");
            assertEquals(Set.of(WindowsVariant.Dup2Order.values()), sample.stream().map(WindowsVariant::dup2Order).collect(Collectors.toSet()));
            assertEquals(Set.of(WindowsVariant.AppType.values()), sample.stream().map(WindowsVariant::appType).collect(Collectors.toSet()));
            assertEquals(Set.of(WindowsVariant.HandleReuse.values()), sample.stream().map(WindowsVariant::handleReuse).collect(Collectors.toSet()));
            assertEquals(stderrIsStdout ? Set.of(false, true) : Set.of(false),
                    sample.stream().map(WindowsVariant::sharedStdoutStderr).collect(Collectors.toSet()));
            assertEquals(4, sample.stream().map(v -> v.dup2Order() + "/" + v.appType()).distinct().count(), "every order with every type");
        }
    }
}
