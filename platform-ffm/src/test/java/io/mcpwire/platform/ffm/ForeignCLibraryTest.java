package io.mcpwire.platform.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.posix.PosixConstants;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the FFM binding adds to the bare calls: its own {@code readlink} gives what the JDK's gives,
 * and a count past a buffer fails before the call rather than letting the kernel write past it.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC, OS.FREEBSD}, disabledReason = "the C library binding is the POSIX one")
class ForeignCLibraryTest {
    private final ForeignCLibrary libc = ForeignCLibrary.load();

    @Test
    void readlinkGivesWhatTheJdkGivesAndNullWhereThereIsNoLink(@TempDir Path dir) throws Exception {
        Path target = Files.writeString(dir.resolve("target with spaces é"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertEquals(Files.readSymbolicLink(link).toString(), libc.readlink(link.toString()));
        assertEquals(target.toString(), libc.readlink(link.toString()));
        assertNull(libc.readlink(target.toString()), "a regular file is no link (EINVAL)");
        assertNull(libc.readlink(dir.resolve("missing").toString()), "nothing there (ENOENT)");
        assertEquals(2, libc.errno(), "errno says why: ENOENT, 2 on Linux, macOS and FreeBSD");
    }

    /**
     * {@code fcntl}'s and {@code open}'s third argument is variadic: whichever stub carries it here,
     * it arrives (the lowest descriptor asked for, the mode a new file is made with).
     */
    @Test
    void theVariadicThirdArgumentArrives(@TempDir Path dir) throws Exception {
        PosixConstants os = PosixConstants.forOs(System.getProperty("os.name"));
        int copy = libc.fcntl(0, os.fDupfdCloexec(), 40);
        assertTrue(copy >= 40, "F_DUPFD_CLOEXEC from 40 gave " + copy + ", errno " + libc.errno());
        assertEquals(PosixConstants.FD_CLOEXEC, libc.fcntl(copy, PosixConstants.F_GETFD));
        assertEquals(0, libc.close(copy));
        Path made = dir.resolve("made");
        int fd = libc.open(made.toString(), PosixConstants.O_WRONLY | os.oCreat(), 0600);
        assertTrue(fd >= 0, "open with O_CREAT: errno " + libc.errno());
        assertEquals(0, libc.close(fd));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(made)));
    }

    /** Only where variadic integers travel as fixed ones does the fixed stub serve both. */
    @Test
    void theFixedStubServesVariadicCallsOnlyWhereTheConventionsAgree() {
        assertTrue(ForeignCLibrary.variadicAsFixed("Linux", "amd64"));
        assertTrue(ForeignCLibrary.variadicAsFixed("Linux", "aarch64"));
        assertFalse(ForeignCLibrary.variadicAsFixed("Mac OS X", "aarch64"), "Apple's arm64 puts them on the stack");
        assertFalse(ForeignCLibrary.variadicAsFixed("Mac OS X", "x86_64"));
        assertFalse(ForeignCLibrary.variadicAsFixed("FreeBSD", "amd64"));
        assertFalse(ForeignCLibrary.variadicAsFixed("Linux", "ppc64le"), "its variadic calls need a save area");
    }

    /** A descriptor of this very process, or a refusal only a kernel before 5.3 (ENOSYS) or a sandbox (EPERM) gives. */
    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "pidfd_open is Linux's")
    void pidfdOpenGivesADescriptorOrOnlyTheRefusalsOfAnOldKernelOrASandbox() {
        int fd = libc.pidfdOpen((int) ProcessHandle.current().pid());
        if (fd < 0) {
            int errno = libc.errno();
            assertTrue(errno == 38 || errno == 1, "ENOSYS or EPERM, not a call made wrong: errno " + errno);
            return;
        }
        assertTrue(fd > 2, "a new descriptor: " + fd);
        assertEquals(0, libc.close(fd));
    }

    /**
     * Linux's C library has no {@code kqueue}: the binding says so, on every call, as an
     * unsupported call (which the host watch takes as a refused wait), not as a linkage error.
     */
    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "kqueue is macOS's; only a Mac makes the call")
    void onLinuxKqueueIsAnUnsupportedCallNotALinkageError() {
        assertThrows(UnsupportedOperationException.class, libc::kqueue);
        assertThrows(UnsupportedOperationException.class, libc::kqueue, "again, once its lookup failed");
        assertThrows(UnsupportedOperationException.class, () -> libc.kevent(3, null, 0, null, 0));
    }

    @Test
    void aCountPastTheBufferFailsBeforeTheCallInsteadOfWritingPastIt() {
        int[] ends = new int[2];
        assertEquals(0, libc.pipe(ends));
        try {
            NativeMemory buffer = libc.allocate(16);
            assertEquals(16, libc.write(ends[1], buffer, 0, 16), "within the buffer, the call is made");
            // 16 bytes wait in the pipe, so an unchecked read would return at once rather than block.
            assertThrows(IndexOutOfBoundsException.class, () -> libc.read(ends[0], buffer, 17));
            assertThrows(IndexOutOfBoundsException.class, () -> libc.write(ends[1], buffer, 8, 9));
            assertThrows(IndexOutOfBoundsException.class, () -> libc.poll(buffer, 3, 0, false));
            assertEquals(16, libc.read(ends[0], buffer, 16));
        } finally {
            libc.close(ends[0]);
            libc.close(ends[1]);
        }
    }

    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "/proc/self/fd is Linux's")
    void readlinkOfAPipesProcEntryIsNotAPath() {
        int[] ends = new int[2];
        assertEquals(0, libc.pipe(ends));
        try {
            String target = libc.readlink("/proc/self/fd/" + ends[0]);
            assertTrue(target.startsWith("pipe:["), target);
        } finally {
            libc.close(ends[0]);
            libc.close(ends[1]);
        }
    }
}
