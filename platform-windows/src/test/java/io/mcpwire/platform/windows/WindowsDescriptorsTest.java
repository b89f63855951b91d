package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.sun.jna.Pointer;
import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import io.mcpwire.platform.windows.jna.Kernel32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The provider's own logic over mocks of its JNA bindings. */
class WindowsDescriptorsTest {
    private final MockWindows win = new MockWindows();
    private final WindowsDescriptors provider = win.provider();

    @Test
    void callsOnADescriptorThatIsNotOpenAreErrorsNotTheEndOfTheProcess() {
        for (org.junit.jupiter.api.function.Executable call : java.util.List.<org.junit.jupiter.api.function.Executable>of(
                () -> provider.identity(7), () -> provider.sameFile(7, 1), () -> provider.open(7),
                () -> provider.duplicateOnto(7, 0), () -> provider.close(7), () -> provider.duplicate(7))) {
            DescriptorException e = assertThrows(DescriptorException.class, call);
            assertTrue(e.getMessage().contains("EBADF") || e.getMessage().contains("errno 9"), e.getMessage());
        }
        verify(win.ucrt, org.mockito.Mockito.atLeastOnce())._set_thread_local_invalid_parameter_handler(
                any(io.mcpwire.platform.windows.jna.Ucrt.InvalidParameterHandler.class));
    }

    @Test
    void theOriginOfAStandardDescriptorComesFromTheCRuntimeAndTheWin32Slot() throws Exception {
        assertEquals(io.mcpwire.platform.StandardOrigin.INHERITED, provider.standardOrigin(0));
        win.slots.remove(WindowsPlatform.STD_SLOTS[1]); // a handle the parent never put in the slot
        assertEquals(io.mcpwire.platform.StandardOrigin.PROCESS_OWN, provider.standardOrigin(1));
        win.fds.remove(2);
        assertEquals(io.mcpwire.platform.StandardOrigin.CLOSED, provider.standardOrigin(2));
        assertThrows(DescriptorException.class, () -> provider.standardOrigin(3));
    }

    @Test
    void strayOutputFilesAreOpenedWideForAppendingAndUninherited() throws Exception {
        int fd = provider.openAppend("C:\\logs\\stray \u00e9.log");
        assertEquals("file C:\\logs\\stray \u00e9.log", win.objectAt(fd));
        verify(win.ucrt)._wopen(any(), eq(WindowsDescriptors.O_WRONLY | WindowsDescriptors.O_APPEND
                | WindowsDescriptors.O_CREAT | WindowsDescriptors.O_BINARY | WindowsDescriptors.O_NOINHERIT), anyInt());
    }

    @Test
    void eachStandardDescriptorIsRoundToItsOwnWin32Slot() throws Exception {
        provider.rebindStandardHandle(0);
        provider.rebindStandardHandle(1);
        provider.rebindStandardHandle(2);
        verify(win.kernel32).SetStdHandle(WindowsPlatform.STD_SLOTS[0], win.fds.get(0));
        verify(win.kernel32).SetStdHandle(WindowsPlatform.STD_SLOTS[1], win.fds.get(1));
        verify(win.kernel32).SetStdHandle(WindowsPlatform.STD_SLOTS[2], win.fds.get(2));
        assertThrows(DescriptorException.class, () -> provider.rebindStandardHandle(3));
    }

    @Test
    void duplicatesAreNeverInheritableAndTheNullDeviceIsOpenedUninherited() throws Exception {
        int p = provider.duplicateAboveStandard(1);
        assertEquals(3, p);
        assertEquals("stdout pipe", win.objectAt(p));
        verify(win.ucrt)._dup(1);
        verify(win.kernel32).SetHandleInformation(win.fds.get(p), Kernel32.HANDLE_FLAG_INHERIT, 0);
        int nul = provider.openNullDevice(Access.WRITE);
        verify(win.ucrt)._open("NUL", WindowsDescriptors.O_WRONLY | WindowsDescriptors.O_BINARY | WindowsDescriptors.O_NOINHERIT);
        assertEquals("NUL", win.objectAt(nul));
    }

    @Test
    void aDuplicateThatLandsOnAStandardDescriptorIsClosedAndRefused() {
        win.forceOpenOsfhandleFd = 2;
        DescriptorException e = assertThrows(DescriptorException.class, () -> provider.duplicateAboveStandard(0));
        assertTrue(e.getMessage().contains("landed on fd 2"), e.getMessage());
        verify(win.ucrt)._close(2);
    }

    @Test
    void aPlainDuplicateMayTakeTheLowestFreeDescriptor() throws Exception {
        win.fds.remove(2);
        assertEquals(2, provider.duplicate(1));
    }

    @Test
    void errorsNameTheCallTheDescriptorAndTheOsError() throws Exception {
        win.dup2FailTarget = 0;
        win.dup2Failures = 1;
        DescriptorException dup2 = assertThrows(DescriptorException.class, () -> provider.duplicateOnto(2, 0));
        assertEquals("_dup2(2, 0)", dup2.operation());
        assertEquals(0, dup2.descriptor());
        assertEquals(9, dup2.errorCode());
        assertTrue(dup2.getMessage().contains("EBADF") && dup2.getMessage().contains("may have been closed"), dup2.getMessage());

        win.setStdHandleFails = true;
        DescriptorException rebind = assertThrows(DescriptorException.class, () -> provider.rebindStandardHandle(1));
        assertEquals(6, rebind.errorCode());
        assertTrue(rebind.getMessage().contains("SetStdHandle(STD_OUTPUT_HANDLE)") && rebind.getMessage().contains("ERROR_INVALID_HANDLE"),
                rebind.getMessage());

        DescriptorException closed = assertThrows(DescriptorException.class, () -> provider.close(42));
        assertTrue(closed.getMessage().contains("_close(42)") && closed.getMessage().contains("EBADF"), closed.getMessage());
        DescriptorException notOpen = assertThrows(DescriptorException.class, () -> provider.identity(42));
        assertTrue(notOpen.getMessage().contains("_get_osfhandle(42)"), notOpen.getMessage());
    }

    @Test
    void identityTellsConsolesNulPipesAndDiskFiles() throws Exception {
        long h = win.fds.get(0);
        when(win.kernel32.GetFileType(h)).thenReturn(WindowsPlatform.FILE_TYPE_CHAR);
        when(win.kernel32.GetConsoleMode(eq(h), any())).thenReturn(true);
        assertEquals(FileIdentity.Kind.TERMINAL, provider.identity(0).kind());
        when(win.kernel32.GetConsoleMode(eq(h), any())).thenReturn(false);
        assertEquals(FileIdentity.Kind.NULL_DEVICE, provider.identity(0).kind());
        assertEquals(FileIdentity.Kind.PIPE, provider.identity(1).kind());

        long file = win.fds.get(2);
        when(win.kernel32.GetFileType(file)).thenReturn(WindowsPlatform.FILE_TYPE_DISK);
        when(win.kernel32.GetFileInformationByHandle(eq(file), any())).thenAnswer(i -> {
            Pointer info = i.getArgument(1);
            info.setInt(offsetOf("dwVolumeSerialNumber"), 0xABCD);
            info.setInt(offsetOf("nFileIndexHigh"), 1);
            info.setInt(offsetOf("nFileIndexLow"), 2);
            return true;
        });
        FileIdentity id = provider.identity(2);
        assertEquals(FileIdentity.Kind.FILE, id.kind());
        assertEquals(0xABCD, id.device());
        assertEquals((1L << 32) | 2, id.file());
    }

    /**
     * Where a field of {@code BY_HANDLE_FILE_INFORMATION} lies, from the structure as Windows
     * declares it (DWORD 4 bytes, FILETIME 8), not from the code under test.
     */
    private static long offsetOf(String field) {
        String[][] declared = {{"dwFileAttributes", "4"}, {"ftCreationTime", "8"}, {"ftLastAccessTime", "8"},
            {"ftLastWriteTime", "8"}, {"dwVolumeSerialNumber", "4"}, {"nFileSizeHigh", "4"}, {"nFileSizeLow", "4"},
            {"nNumberOfLinks", "4"}, {"nFileIndexHigh", "4"}, {"nFileIndexLow", "4"}};
        long offset = 0;
        for (String[] f : declared) {
            if (f[0].equals(field)) {
                return offset;
            }
            offset += Integer.parseInt(f[1]);
        }
        throw new IllegalArgumentException(field);
    }

    @Test
    void sameFileComparesTheKernelObjectsAndIsConservativeWithoutTheCall() throws Exception {
        int copy = provider.duplicate(1);
        assertTrue(provider.sameFile(1, copy));
        assertFalse(provider.sameFile(1, 2));
        WindowsDescriptors old = new WindowsDescriptors(new WindowsDescriptors.Libraries(win.ucrt, win.kernel32, null, () -> 0));
        assertTrue(old.sameFile(1, 2), "cannot tell: say same, so stray output goes to NUL");
        verify(win.kernelBase, org.mockito.Mockito.atLeastOnce()).CompareObjectHandles(anyLong(), anyLong());
    }

    @Test
    void itSaysTheJvmStreamsDoNotFollowTheDescriptors() {
        assertFalse(provider.jvmStreamsFollowDescriptors());
        assertEquals("windows", provider.name());
        assertEquals(io.mcpwire.platform.Probe.available(), provider.probe(), "over bindings given to it");
    }

    @Test
    @DisabledOnOs(value = OS.WINDOWS, disabledReason = "checks the answer on every other system")
    void elsewhereItIsUnsupportedAndSaysWhy() {
        WindowsDescriptors real = new WindowsDescriptors();
        io.mcpwire.platform.Probe.Unavailable why = assertInstanceOf(io.mcpwire.platform.Probe.Unavailable.class, real.probe());
        assertTrue(why.reason().startsWith("not Windows"), why.reason());
        assertTrue(why.cause().isPresent(), "the load's failure is kept");
    }
}
