package io.mcpwire.platform.rules.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.rules.NativeBinding;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The shared Windows rules over a scripted binding: what they decide from what the system answers. */
class WindowsPlatformTest {
    private final ScriptedWin32 win = new ScriptedWin32();
    private final WindowsPlatform rules = new WindowsPlatform(NativeBinding.of("scripted Win32", win),
            DescriptorTable.create("the scripted table")) {
        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public int priority() {
            return 0;
        }
    };

    @Test
    void thePrivateDuplicateIsANonInheritableHandleAboveTheStandardRange() throws Exception {
        int p = rules.duplicateAboveStandard(0);
        assertEquals(3, p);
        assertEquals("stdin pipe", win.objectAt(p));
        assertFalse(rules.jvmStreamsFollowDescriptors(), "the JVM's streams keep their handles: the engine swaps them");
    }

    @Test
    void aDuplicateThatLandsOnAStandardDescriptorIsClosedAgainAndRefused() {
        win.fds.remove(1);
        win.nextOsfFd = 1;
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicateAboveStandard(0));
        assertTrue(e.getMessage().contains("landed on fd 1"), e.getMessage());
        assertFalse(win.fds.containsKey(1), "closed again");
    }

    @Test
    void aFailedDuplicateNamesTheCallAndTheErrorAndLeaksNoDescriptor() {
        win.fail("_dup", 24);
        DescriptorException dup = assertThrows(DescriptorException.class, () -> rules.duplicate(0));
        assertTrue(dup.getMessage().contains("_dup(0)") && dup.getMessage().contains("EMFILE"), dup.getMessage());
        win.fail("SetHandleInformation", 6);
        DescriptorException flag = assertThrows(DescriptorException.class, () -> rules.duplicate(0));
        assertTrue(flag.getMessage().contains("SetHandleInformation") && flag.getMessage().contains("ERROR_INVALID_HANDLE"),
                flag.getMessage());
        assertEquals(Set.of(0, 1, 2), win.fds.keySet(), "the duplicate that could not be made private is closed again");
    }

    @Test
    void aDuplicateIsMadeWithoutAskingTheHandleAnythingAndIsNotInherited() throws Exception {
        win.fail("GetFileType", 6); // _dup asks no GetFileType, which a read pending on the pipe would hold up
        int p = rules.duplicateAboveStandard(0);
        assertTrue(win.uninherited.contains(win.fds.get(p)), "SetHandleInformation cleared its inheritance");
    }

    @Test
    void aPipeIsMadeAboveTheStandardRangeEvenWhenAStandardDescriptorIsFree() throws Exception {
        win.fds.remove(0); // a process started without stdin: _pipe takes the lowest free descriptors
        PipeEnds ends = rules.pipe();
        assertTrue(ends.readEnd() > 2 && ends.writeEnd() > 2, "ends " + ends);
        assertEquals("own pipe (read end)", win.objectAt(ends.readEnd()));
        assertEquals("own pipe (write end)", win.objectAt(ends.writeEnd()));
        assertFalse(win.fds.containsKey(0), "the end that landed on fd 0 was moved, and fd 0 is free again");
        assertTrue(win.uninherited.contains(win.fds.get(ends.readEnd())), "the moved end is not inherited");
    }

    @Test
    void aFailedPipeNamesTheCallAndTheErrorAndLeavesNothingOpen() {
        win.fail("_pipe", 24);
        DescriptorException e = assertThrows(DescriptorException.class, rules::pipe);
        assertTrue(e.getMessage().contains("_pipe(65536") && e.getMessage().contains("EMFILE"), e.getMessage());
        assertEquals(Set.of(0, 1, 2), win.fds.keySet());
        win.fds.remove(0);
        win.fail("SetHandleInformation", 6); // moving the end off fd 0 fails
        assertThrows(DescriptorException.class, rules::pipe);
        assertEquals(Set.of(1, 2), win.fds.keySet(), "both ends and the half-made duplicate are closed again");
    }

    @Test
    void aFailedDup2SaysTheTargetMayHaveBeenClosed() {
        win.fail("_dup2", 9);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.duplicateOnto(3, 0));
        assertTrue(e.getMessage().contains("_dup2(3, 0)") && e.getMessage().contains("fd 0 may have been closed"), e.getMessage());
    }

    @Test
    void theNullDeviceIsOpenedNotInheritableWithTheAccessAsked() throws Exception {
        int fd = rules.openNullDevice(Access.WRITE);
        int flags = Integer.parseInt(win.objectAt(fd).replaceAll(".*flags ", ""), 16);
        assertTrue(win.objectAt(fd).startsWith("NUL"));
        assertEquals(WindowsPlatform.O_WRONLY | WindowsPlatform.O_BINARY | WindowsPlatform.O_NOINHERIT, flags);
    }

    @Test
    void theOriginComesFromTheDescriptorAndTheSlotThatTheParentFills() throws Exception {
        assertEquals(StandardOrigin.INHERITED, rules.standardOrigin(0));
        win.fds.put(0, -2L); // open with no OS handle: started without stdin
        assertEquals(StandardOrigin.CLOSED, rules.standardOrigin(0));
        win.fds.remove(0);
        assertEquals(StandardOrigin.CLOSED, rules.standardOrigin(0));
        win.slots.remove(WindowsPlatform.STD_SLOTS[1]); // a handle of its own where the parent gave none
        assertEquals(StandardOrigin.PROCESS_OWN, rules.standardOrigin(1));
        assertThrows(DescriptorException.class, () -> rules.standardOrigin(3));
    }

    @Test
    void rebindingPointsTheSlotAtTheDescriptorsHandle() throws Exception {
        win.fds.put(1, win.handle("NUL"));
        rules.rebindStandardHandle(1);
        assertEquals("NUL", win.objects.get(win.slots.get(WindowsPlatform.STD_SLOTS[1])));
        win.fail("SetStdHandle", 6);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.rebindStandardHandle(0));
        assertTrue(e.getMessage().contains("SetStdHandle(STD_INPUT_HANDLE)"), e.getMessage());
    }

    @Test
    void identityTellsTheKindsAndAFailingGetFileTypeIsAnError() throws Exception {
        assertEquals(FileIdentity.Kind.PIPE, rules.identity(0).kind());
        win.types.put("stderr pipe", WindowsPlatform.FILE_TYPE_DISK);
        FileIdentity disk = rules.identity(2);
        assertEquals(FileIdentity.Kind.FILE, disk.kind());
        assertEquals(7, disk.device());
        win.fds.put(1, win.handle("a console"));
        win.types.put("a console", WindowsPlatform.FILE_TYPE_CHAR);
        assertEquals(FileIdentity.Kind.TERMINAL, rules.identity(1).kind());
        win.fds.put(1, win.handle("NUL"));
        win.types.put("NUL", WindowsPlatform.FILE_TYPE_CHAR);
        assertEquals(FileIdentity.Kind.NULL_DEVICE, rules.identity(1).kind());
        win.fail("GetFileType", 6);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.identity(0));
        assertTrue(e.getMessage().contains("GetFileType(fd 0)"), e.getMessage());
        win.types.put("stdin pipe", WindowsPlatform.FILE_TYPE_UNKNOWN);
        assertEquals(FileIdentity.Kind.OTHER, rules.identity(0).kind(), "unknown with no error: another kind of device");
    }

    @Test
    void sameFileComparesTheKernelObjectsAndSaysSameWhereItCannotTell() throws Exception {
        assertFalse(rules.sameFile(1, 2));
        win.fds.put(2, win.handle("stdout pipe"));
        assertTrue(rules.sameFile(1, 2));
        win.compareMissing = true;
        assertTrue(rules.sameFile(0, 1), "before Windows 10 1607: 'same', so stdout diverts to NUL rather than risk the wire");
    }

    @ParameterizedTest
    @ValueSource(ints = {WindowsErrors.ERROR_BROKEN_PIPE, WindowsErrors.ERROR_PIPE_NOT_CONNECTED, WindowsErrors.ERROR_HANDLE_EOF})
    void everyWayTheWriterCanGoIsEndOfInput(int error) throws Exception {
        win.reads.add(() -> -error);
        try (DescriptorStream s = rules.open(0)) {
            assertEquals(-1, s.read(new byte[8], 0, 8));
        }
    }

    @Test
    void anyOtherReadFailureIsAnErrorNamingIt() throws Exception {
        win.reads.add(() -> -5);
        try (DescriptorStream s = rules.open(0)) {
            DescriptorException e = assertThrows(DescriptorException.class, () -> s.read(new byte[8], 0, 8));
            assertTrue(e.getMessage().contains("ReadFile(fd 0)") && e.getMessage().contains("ERROR_ACCESS_DENIED"), e.getMessage());
        }
    }

    @Test
    void noQueryIsMadeOnAPipeWhileAReadIsPendingOnIt() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        win.reads.add(() -> {
            reading.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 2;
        });
        int p = rules.duplicateAboveStandard(0);
        DescriptorStream s = rules.open(p);
        CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
            try {
                return s.read(new byte[8], 0, 8);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(reading.await(10, TimeUnit.SECONDS));
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.identity(0), "fd 0 shares the pipe");
        assertTrue(e.getMessage().contains("a read is pending on the same pipe"), e.getMessage());
        int q = rules.duplicateAboveStandard(p); // _dup asks nothing of the handle, so it is made all the same
        assertEquals("stdin pipe", win.objectAt(q));
        rules.close(q);
        assertEquals(FileIdentity.Kind.PIPE, rules.identity(1).kind(), "another pipe is answered");
        release.countDown();
        assertEquals(2, read.get(10, TimeUnit.SECONDS));
        assertEquals(FileIdentity.Kind.PIPE, rules.identity(0).kind(), "answered once the read is over");
        s.close();
    }

    @Test
    void describeNamesTheHandleAndTheSlotWithoutAQuery() {
        win.fail("GetFileType", 6); // would fail if describe asked
        assertTrue(rules.describe(1).startsWith("handle 0x") && rules.describe(1).contains("STD_OUTPUT_HANDLE"), rules.describe(1));
        assertEquals("not open", rules.describe(9));
    }
}
