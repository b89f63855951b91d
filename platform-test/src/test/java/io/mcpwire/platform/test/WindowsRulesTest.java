package io.mcpwire.platform.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.rules.windows.WindowsErrors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The shared Windows rules, as the JNA and FFM providers run them, over the fake's model of the C
 * runtime and the Win32 handles: what they decide from what the system answers, and the error each
 * failing call gives. (How the model itself behaves is {@link FakeWindowsTest}'s.)
 */
class WindowsRulesTest {
    /** {@code javaw.exe}: the slots are values nothing but {@code SetStdHandle} changes. */
    private static final WindowsVariant GUI = new WindowsVariant(WindowsVariant.Dup2Order.DUPLICATE_FIRST,
            WindowsVariant.AppType.GUI, false, WindowsVariant.HandleReuse.LOWEST_FIRST);
    private final FakeProcess fake = FakeProcess.builder().windows().makesPipes().build();
    private final PlatformDescriptors rules = fake.windows();

    private static DescriptorException failing(org.junit.jupiter.api.function.Executable call, String... parts) {
        DescriptorException e = assertThrows(DescriptorException.class, call);
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
        }
        return e;
    }

    @Test
    void thePrivateDuplicateIsANonInheritableHandleAboveTheStandardRange() throws Exception {
        int p = rules.duplicateAboveStandard(0);
        assertTrue(p > 2, "fd " + p);
        assertTrue(fake.refersToWireOf(p, 0));
        assertFalse(fake.inheritedDescriptors().contains(p), "SetHandleInformation cleared its inheritance");
        assertFalse(rules.jvmStreamsFollowDescriptors(), "the JVM's streams keep their handles: the engine swaps them");
    }

    @Test
    void aDuplicateThatLandsOnAStandardDescriptorIsClosedAgainAndRefused() throws Exception {
        rules.close(1); // _dup takes the lowest free descriptor
        failing(() -> rules.duplicateAboveStandard(0), "duplicateAboveStandard(0)", "landed on fd 1");
        assertEquals("closed", fake.describe(1), "closed again");
    }

    @Test
    void aFailedDuplicateNamesTheCallAndTheErrorAndLeaksNoDescriptor() {
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.DUP).errno(24, "EMFILE");
        failing(() -> rules.duplicate(0), "_dup(0)", "EMFILE");
        fake.faults().on(Op.SET_HANDLE_INFORMATION).errno(6, "ERROR_INVALID_HANDLE");
        failing(() -> rules.duplicate(0), "SetHandleInformation", "ERROR_INVALID_HANDLE");
        assertEquals(before, fake.snapshot(), "the duplicate that could not be made private is closed again");
    }

    @Test
    void aDuplicateIsMadeWithoutAskingTheHandleAnything() throws Exception {
        fake.faults().on(Op.GET_FILE_TYPE).always(); // a read pending on the pipe would hold GetFileType up
        int p = rules.duplicateAboveStandard(0);
        assertTrue(fake.refersToWireOf(p, 0));
    }

    @Test
    void aPipeIsMadeAboveTheStandardRangeEvenWhenAStandardDescriptorIsFree() throws Exception {
        rules.close(0); // _pipe takes the lowest free descriptors
        PipeEnds ends = rules.pipe();
        assertTrue(ends.readEnd() > 2 && ends.writeEnd() > 2, "ends " + ends);
        assertEquals("closed", fake.describe(0), "the end that landed on fd 0 was moved, and fd 0 is free again");
        assertFalse(fake.inheritedDescriptors().contains(ends.readEnd()) || fake.inheritedDescriptors().contains(ends.writeEnd()),
                "neither end is inherited: " + fake.inheritedDescriptors());
    }

    @Test
    void aFailedPipeNamesTheCallAndTheErrorAndLeavesNothingOpen() throws Exception {
        TableSnapshot before = fake.snapshot();
        fake.faults().on(Op.PIPE).errno(24, "EMFILE");
        failing(rules::pipe, "_pipe(65536", "EMFILE");
        assertEquals(before, fake.snapshot());
        rules.close(0);
        TableSnapshot withoutStdin = fake.snapshot();
        fake.faults().on(Op.SET_HANDLE_INFORMATION).errno(6, "ERROR_INVALID_HANDLE");
        failing(rules::pipe, "SetHandleInformation", "ERROR_INVALID_HANDLE");
        assertEquals(withoutStdin, fake.snapshot(), "both ends and the half-made duplicate are closed again");
    }

    @Test
    void aFailedDup2SaysTheTargetMayHaveBeenClosed() throws Exception {
        int p = rules.duplicateAboveStandard(0);
        fake.faults().on(Op.DUP2).errno(9, "EBADF");
        failing(() -> rules.duplicateOnto(p, 0), "_dup2(" + p + ", 0)", "EBADF", "fd 0 may have been closed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"READ", "WRITE"})
    void theNullDeviceIsOpenedUninheritedWithTheAccessAsked(Access access) throws Exception {
        int fd = rules.openNullDevice(access);
        assertEquals("null device (" + access.name().toLowerCase(java.util.Locale.ROOT) + ")", fake.describe(fd));
        assertFalse(fake.inheritedDescriptors().contains(fd));
    }

    @Test
    void theOriginComesFromTheDescriptorAndTheSlotThatTheParentFills() throws Exception {
        assertEquals(StandardOrigin.INHERITED, rules.standardOrigin(0));
        FakeProcess gui = FakeProcess.builder().windows(GUI)
                .closedAtStart(1).build();
        PlatformDescriptors guiRules = gui.windows();
        assertEquals(StandardOrigin.CLOSED, guiRules.standardOrigin(1), "started without stdout: open with no OS handle");
        guiRules.duplicateOnto(guiRules.openNullDevice(Access.WRITE), 1);
        assertEquals(StandardOrigin.PROCESS_OWN, guiRules.standardOrigin(1), "a handle of its own where the parent gave none");
        guiRules.close(1);
        assertEquals(StandardOrigin.CLOSED, guiRules.standardOrigin(1));
        failing(() -> rules.standardOrigin(3), "standardOrigin(3)", "not a standard descriptor");
    }

    @Test
    void rebindingPointsTheSlotAtTheDescriptorsFile() throws Exception {
        FakeProcess gui = FakeProcess.builder().windows(GUI).build();
        PlatformDescriptors guiRules = gui.windows();
        StandardHandleDuties guiDuties = guiRules.standardHandleDuties().orElseThrow();
        int nul = guiRules.openNullDevice(Access.WRITE);
        guiRules.duplicateOnto(nul, 1);
        assertTrue(!gui.stdHandle(1).startsWith("null device"), "a GUI program's slot is not changed by _dup2: " + gui.stdHandle(1));
        guiDuties.rebindStandardHandle(1);
        assertEquals("null device (write)", gui.stdHandle(1));
        gui.faults().on(Op.SET_STD_HANDLE).errno(6, "ERROR_INVALID_HANDLE");
        failing(() -> guiDuties.rebindStandardHandle(0), "SetStdHandle(STD_INPUT_HANDLE)", "ERROR_INVALID_HANDLE");
        failing(() -> guiDuties.rebindStandardHandle(3), "not a standard descriptor");
    }

    @Test
    void identityTellsTheKindsAndAFailingQueryIsAnErrorNamingIt() throws Exception {
        assertEquals(FileIdentity.Kind.PIPE, rules.identity(0).kind());
        assertEquals(FileIdentity.Kind.NULL_DEVICE, rules.identity(rules.openNullDevice(Access.WRITE)).kind());
        FakeProcess terminal = FakeProcess.builder().windows().stderr(StderrMode.TERMINAL_WITH_STDOUT).build();
        assertEquals(FileIdentity.Kind.TERMINAL, terminal.windows().identity(2).kind());
        int file = rules.openAppend("C:\\logs\\stray.log");
        FileIdentity disk = rules.identity(file);
        assertEquals(FileIdentity.Kind.FILE, disk.kind());
        assertEquals(disk, rules.identity(rules.duplicate(file)), "a duplicate names the same file");
        fake.faults().on(Op.GET_FILE_TYPE).errno(6, "ERROR_INVALID_HANDLE");
        failing(() -> rules.identity(0), "GetFileType(fd 0)");
        fake.faults().on(Op.FILE_ID).errno(5, "ERROR_ACCESS_DENIED");
        failing(() -> rules.identity(file), "GetFileInformationByHandle(fd " + file + ")");
    }

    @Test
    void sameFileComparesTheKernelObjects() throws Exception {
        assertFalse(rules.sameFile(1, 2));
        assertFalse(rules.sameFile(0, 1));
        FakeProcess merged = FakeProcess.builder().windows().stderr(StderrMode.SAME_AS_STDOUT).build();
        assertTrue(merged.windows().sameFile(1, 2), "2>&1: another handle on the same pipe");
    }

    @Test
    void withoutCompareObjectHandlesEveryPairIsTheSameSoStrayOutputNeverRisksTheWire() throws Exception {
        fake.win32().removeCompareObjectHandles();
        assertTrue(rules.sameFile(0, 1), "before Windows 10 1607: 'same', so stdout diverts to NUL rather than risk the wire");
    }

    @ParameterizedTest
    @ValueSource(ints = {WindowsErrors.ERROR_BROKEN_PIPE, WindowsErrors.ERROR_PIPE_NOT_CONNECTED, WindowsErrors.ERROR_HANDLE_EOF})
    void everyWayTheWriterCanGoIsEndOfInput(int error) throws Exception {
        fake.faults().on(Op.READ).errno(error, "the writer went");
        try (DescriptorStream s = rules.open(0)) {
            assertEquals(-1, s.read(new byte[8], 0, 8));
        }
    }

    @Test
    void aReadGivesWhatTheClientWroteAndAnyOtherReadFailureIsAnErrorNamingIt() throws Exception {
        fake.client().send("{}");
        try (DescriptorStream s = rules.open(0)) {
            byte[] b = new byte[8];
            assertEquals(3, s.read(b, 0, 8));
            assertEquals("{}\n", new String(b, 0, 3, java.nio.charset.StandardCharsets.UTF_8));
            fake.faults().on(Op.READ).errno(5, "ERROR_ACCESS_DENIED");
            failing(() -> s.read(b, 0, 8), "ReadFile(fd 0)", "ERROR_ACCESS_DENIED");
        }
    }

    @Test
    void writesReachTheClientAsGivenAndAGoneClientIsAnErrorNamingIt() throws Exception {
        try (DescriptorStream s = rules.open(1)) {
            byte[] line = "{\"jsonrpc\":\"2.0\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            s.write(line, 0, line.length);
            assertEquals("{\"jsonrpc\":\"2.0\"}\n", fake.client().drainText(), "LF only, no CR added");
            fake.faults().on(Op.WRITE).errno(WindowsErrors.ERROR_NO_DATA, "ERROR_NO_DATA");
            failing(() -> s.write(line, 0, line.length), "WriteFile(fd 1)", "ERROR_NO_DATA");
        }
    }

    @Test
    void describeNamesTheHandleAndTheSlotWithoutAQuery() {
        fake.faults().on(Op.GET_FILE_TYPE).always(); // would fail if describe asked
        assertTrue(rules.describe(1).startsWith("handle 0x") && rules.describe(1).contains("STD_OUTPUT_HANDLE"), rules.describe(1));
        assertEquals("not open", rules.describe(9));
    }
}
