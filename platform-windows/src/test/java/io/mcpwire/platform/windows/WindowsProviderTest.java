package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.rules.windows.Win32;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.Op;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.WindowsVariant;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.function.Executable;

/**
 * The JNA provider's own layer, its bindings answered by the fake's model of Windows
 * ({@link ModelledLibraries}): every C runtime call made quiet, each call's arguments and results
 * carried through JNA's memory and references, and each failure named. What the shared rules
 * decide is {@code WindowsRulesTest}'s, in the fake's module.
 */
class WindowsProviderTest {
    private static final Duration T = Duration.ofSeconds(10);
    /** {@code javaw.exe}: the slots are values nothing but {@code SetStdHandle} changes. */
    private static final WindowsVariant GUI = new WindowsVariant(WindowsVariant.Dup2Order.DUPLICATE_FIRST,
            WindowsVariant.AppType.GUI, false, WindowsVariant.HandleReuse.LOWEST_FIRST);

    private final FakeProcess fake = FakeProcess.builder().windows().makesPipes().build();
    private final ModelledLibraries libraries = new ModelledLibraries(fake);
    private final WindowsDescriptors provider = libraries.provider(true);

    private static DescriptorException failing(Executable call, String... parts) {
        DescriptorException e = assertThrows(DescriptorException.class, call);
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
        }
        return e;
    }

    @Test
    void everyCRuntimeCallRunsWithTheInvalidParameterHandlerSuppressed() throws Exception {
        int p = provider.duplicateAboveStandard(0);
        PipeEnds ends = provider.pipe();
        int nul = provider.openNullDevice(Access.WRITE);
        provider.duplicateOnto(nul, 1);
        provider.rebindStandardHandle(1);
        provider.identity(2);
        provider.close(nul);
        provider.close(ends.readEnd());
        provider.close(ends.writeEnd());
        provider.close(p);
        for (Executable onAClosedOne : List.<Executable>of(() -> provider.identity(7), () -> provider.sameFile(7, 1),
                () -> provider.open(7), () -> provider.duplicateOnto(7, 0), () -> provider.close(7), () -> provider.duplicate(7))) {
            failing(onAClosedOne, "EBADF");
        }
        assertEquals(List.of(), libraries.unguardedCalls(), "a call on a closed descriptor is an error, not the end of the process");
    }

    @Test
    void strayOutputFilesAreOpenedWideForAppendingAndUninherited() throws Exception {
        String path = "C:\\logs\\stray \u00e9.log";
        int fd = provider.openAppend(path);
        try (DescriptorStream s = provider.open(fd)) {
            s.write("one line\n".getBytes(StandardCharsets.UTF_8), 0, 9);
        }
        assertEquals("one line\n", fake.fileText(path), "the wide path reached the C runtime whole");
        assertFalse(fake.inheritedDescriptors().contains(fd));
    }

    @Test
    void eachStandardDescriptorIsBoundToItsOwnWin32Slot() throws Exception {
        FakeProcess gui = FakeProcess.builder().windows(GUI).build();
        WindowsDescriptors onGui = new ModelledLibraries(gui).provider(true);
        String[] before = {gui.stdHandle(0), gui.stdHandle(1), gui.stdHandle(2)};
        onGui.duplicateOnto(onGui.openNullDevice(Access.WRITE), 1);
        onGui.rebindStandardHandle(1);
        assertEquals("null device (write)", gui.stdHandle(1));
        assertEquals(before[0], gui.stdHandle(0));
        assertEquals(before[2], gui.stdHandle(2));
        failing(() -> onGui.rebindStandardHandle(3), "not a standard descriptor");
    }

    @Test
    void duplicatesAreNeverInheritableAndTheNullDeviceIsOpenedUninherited() throws Exception {
        int p = provider.duplicateAboveStandard(1);
        assertTrue(p > 2 && fake.refersToWireOf(p, 1), fake.describe(p));
        int nul = provider.openNullDevice(Access.READ);
        assertEquals("null device (read)", fake.describe(nul));
        assertFalse(fake.inheritedDescriptors().contains(p) || fake.inheritedDescriptors().contains(nul),
                "inherited: " + fake.inheritedDescriptors());
    }

    @Test
    void errorsNameTheCallTheDescriptorAndTheOsError() throws Exception {
        int p = provider.duplicateAboveStandard(2);
        fake.faults().on(Op.DUP2).errno(9, "EBADF");
        DescriptorException dup2 = failing(() -> provider.duplicateOnto(p, 0), "EBADF", "may have been closed");
        assertEquals("_dup2(" + p + ", 0)", dup2.operation());
        assertEquals(0, dup2.descriptor());
        assertEquals(9, dup2.errorCode(), "errno read through _get_errno");

        fake.faults().on(Op.SET_STD_HANDLE).errno(6, "ERROR_INVALID_HANDLE");
        DescriptorException rebind = failing(() -> provider.rebindStandardHandle(1), "SetStdHandle(STD_OUTPUT_HANDLE)",
                "ERROR_INVALID_HANDLE");
        assertEquals(6, rebind.errorCode(), "GetLastError read after the call");

        failing(() -> provider.close(42), "_close(42)", "EBADF");
        failing(() -> provider.identity(42), "_get_osfhandle(42)");
    }

    /** The limits go through JNA's memory as the kernel reads them back ({@link ModelledLibraries} checks every byte). */
    @Test
    void theChildrenAreTiedByAJobWhoseLimitsReachTheKernelAsLaidOutAndAFailureNamesGetLastError() throws Exception {
        fake.faults().on(Op.JOB_OBJECT).nth(3).errno(5, "ERROR_ACCESS_DENIED");
        DescriptorException assign = failing(provider::tieChildrenToProcess, "AssignProcessToJobObject", "ERROR_ACCESS_DENIED");
        assertEquals(5, assign.errorCode());
        assertFalse(fake.childrenTiedToProcess());
        assertTrue(provider.tieChildrenToProcess());
        assertTrue(fake.childrenTiedToProcess());
    }

    @Test
    void identityTellsConsolesNulPipesAndDiskFilesThroughTheFileInformationStructure() throws Exception {
        assertEquals(FileIdentity.Kind.PIPE, provider.identity(0).kind());
        assertEquals(FileIdentity.Kind.NULL_DEVICE, provider.identity(provider.openNullDevice(Access.WRITE)).kind());
        FakeProcess shell = FakeProcess.builder().windows().stderr(StderrMode.TERMINAL_WITH_STDOUT).build();
        assertEquals(FileIdentity.Kind.TERMINAL, new ModelledLibraries(shell).provider(true).identity(1).kind(),
                "GetConsoleMode tells a console from NUL");

        int file = provider.openAppend("C:\\logs\\stray.log");
        Win32 model = fake.windowsBinding();
        long[] id = model.fileId(model.getOsfHandle(file));
        FileIdentity disk = provider.identity(file);
        assertEquals(FileIdentity.Kind.FILE, disk.kind());
        assertEquals(id[0], disk.device(), "the volume serial number, from its place in the structure");
        assertEquals(id[1], disk.file(), "the file index, high and low words, from their places in the structure");
    }

    @Test
    void sameFileComparesTheKernelObjectsAndIsConservativeWithoutTheCall() throws Exception {
        int copy = provider.duplicate(1);
        assertTrue(provider.sameFile(1, copy));
        assertFalse(provider.sameFile(1, 2));
        assertTrue(libraries.provider(false).sameFile(1, 2), "before Windows 10 1607 it cannot tell: same, so stray output goes to NUL");
    }

    @Test
    void itSaysTheJvmStreamsDoNotFollowTheDescriptors() {
        assertFalse(provider.jvmStreamsFollowDescriptors());
        assertEquals("windows", provider.name());
        assertEquals(Probe.available(), provider.probe(), "over bindings given to it");
    }

    @Test
    @DisabledOnOs(value = OS.WINDOWS, disabledReason = "checks the answer on every other system")
    void elsewhereItIsUnsupportedAndSaysWhy() {
        WindowsDescriptors real = new WindowsDescriptors();
        Probe.Unavailable why = assertInstanceOf(Probe.Unavailable.class, real.probe());
        assertTrue(why.reason().startsWith("not Windows"), why.reason());
        assertTrue(why.cause().isPresent(), "the load's failure is kept");
    }

    // ------------------------------------------------------------------ the stream

    @Test
    void readsWhatTheClientSentThroughNativeMemoryAndItsClosedEndIsEndOfInput() throws Exception {
        fake.client().send("{\"jsonrpc\":\"2.0\"}");
        try (DescriptorStream s = provider.open(0)) {
            byte[] b = new byte[100];
            int n = s.read(b, 0, 100);
            assertEquals("{\"jsonrpc\":\"2.0\"}\n", new String(b, 0, n, StandardCharsets.UTF_8));
            fake.client().closeInput();
            assertEquals(-1, s.read(b, 0, 100), "the client closed its end");
        }
    }

    @Test
    void aReadFailureIsAnErrorNamingGetLastErrorsCode() throws Exception {
        fake.faults().on(Op.READ).errno(5, "ERROR_ACCESS_DENIED");
        try (DescriptorStream s = provider.open(0)) {
            failing(() -> s.read(new byte[8], 0, 8), "ReadFile(fd 0)", "ERROR_ACCESS_DENIED");
        }
    }

    @Test
    void writesAreTheBytesAsGivenWithLfOnlyEvenWhenThePipeTakesThreeBytesAtATime() throws Exception {
        FakeProcess narrow = FakeProcess.builder().windows().pipeCapacity(3).build();
        WindowsDescriptors onNarrow = new ModelledLibraries(narrow).provider(true);
        byte[] line = "{\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> narrow.client().readLine(T));
        try (DescriptorStream s = onNarrow.open(1)) {
            s.write(line, 0, line.length);
        }
        assertEquals("{\"a\":1}", read.get(T.toSeconds(), TimeUnit.SECONDS));
    }

    @Test
    void writingToAClientThatHasGoneFailsWithTheReason() throws Exception {
        fake.client().disconnect();
        try (DescriptorStream s = provider.open(1)) {
            failing(() -> s.write(new byte[] {'x'}, 0, 1), "ERROR_NO_DATA", "reader has gone");
        }
    }

    @Test
    void wakeUpCancelsABlockedReadOnTheReadingThread() throws Exception {
        DescriptorStream s = provider.open(provider.duplicateAboveStandard(0));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread reader = BlockedThreads.start(() -> s.read(new byte[8], 0, 8), outcome);
        BlockedThreads.awaitWaitingIn(reader, "io.mcpwire.platform.test.FakeFile", T);
        s.wakeUp();
        assertInstanceOf(AsynchronousCloseException.class, outcome.get(T.toSeconds(), TimeUnit.SECONDS));
        s.close();
        assertThrows(AsynchronousCloseException.class, () -> s.read(new byte[8], 0, 8));
        assertEquals(List.of(), libraries.unguardedCalls());
    }
}
