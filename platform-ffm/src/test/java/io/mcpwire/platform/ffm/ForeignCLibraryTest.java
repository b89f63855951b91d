package io.mcpwire.platform.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calls the FFM binding makes itself where the shared rules would otherwise use the JDK's:
 * they must give what the JDK gives.
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
