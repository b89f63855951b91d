package io.mcpwire.platform.posix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Platform;
import io.mcpwire.platform.test.harness.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * JNA's native library comes from a per-user cache: unpacked once, checked against the jar's
 * entry on every use, replaced when it differs, and never taken from a place another user may write.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the POSIX provider runs on Linux and macOS")
class JnaDispatchCacheTest {

    @Test
    void unpacksOnceThenUsesTheCheckedCopy(@TempDir Path base) throws IOException {
        Path directory = JnaDispatchCache.cachedCopy(base).orElseThrow();
        Path library = directory.resolve(JnaDispatchCache.libraryName());
        assertArrayEquals(jarsCopy(), Files.readAllBytes(library));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)));
        Object unpacked = Files.readAttributes(library, "unix:ino").get("ino");

        assertEquals(Optional.of(directory), JnaDispatchCache.cachedCopy(base));
        assertEquals(unpacked, Files.readAttributes(library, "unix:ino").get("ino"), "the same file, not unpacked again");
        try (var files = Files.list(directory)) {
            assertEquals(1, files.count(), "no part file left behind");
        }
    }

    @Test
    void aDamagedCopyIsReplaced(@TempDir Path base) throws IOException {
        Path library = JnaDispatchCache.cachedCopy(base).orElseThrow().resolve(JnaDispatchCache.libraryName());
        byte[] damaged = jarsCopy();
        damaged[damaged.length / 2] ^= 1;
        Files.write(library, damaged);

        JnaDispatchCache.cachedCopy(base).orElseThrow();
        assertArrayEquals(jarsCopy(), Files.readAllBytes(library));
    }

    @Test
    void aLinkInTheLibrarysPlaceIsReplacedNotFollowed(@TempDir Path base, @TempDir Path elsewhere) throws IOException {
        Path directory = JnaDispatchCache.cachedCopy(base).orElseThrow();
        Path library = directory.resolve(JnaDispatchCache.libraryName());
        Path target = Files.write(elsewhere.resolve("other"), jarsCopy());
        Files.delete(library);
        Files.createSymbolicLink(library, target);

        JnaDispatchCache.cachedCopy(base).orElseThrow();
        assertFalse(Files.isSymbolicLink(library));
        assertTrue(Files.isRegularFile(library, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aCacheOthersMayWriteIsNotUsed(@TempDir Path parent) throws IOException {
        Path base = Files.createDirectory(parent.resolve("shared"));
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals(Optional.empty(), JnaDispatchCache.cachedCopy(base));

        Path ownBase = Files.createDirectory(parent.resolve("own"));
        Path directory = JnaDispatchCache.cachedCopy(ownBase).orElseThrow();
        Files.setPosixFilePermissions(directory.resolve(JnaDispatchCache.libraryName()), PosixFilePermissions.fromString("rw-rw-rw-"));
        JnaDispatchCache.cachedCopy(ownBase).orElseThrow();
        assertEquals("rwx------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(directory.resolve(JnaDispatchCache.libraryName()))), "a copy others may write is replaced");
    }

    /**
     * A JVM that claims loads JNA's library from the cache under its home, leaves no property
     * behind, and starts no process ({@code ldconfig}, see {@link LinuxLibraryPath}).
     */
    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "reads /proc/self/maps")
    void theProviderLoadsJnaFromTheCache(@TempDir Path home) throws Exception {
        Path report = home.resolve("report");
        Path classLog = home.resolve("classes.log");
        List<String> cmd = List.of(ChildJvm.java(), "-Duser.home=" + home, "-Xlog:class+load=info:file=" + classLog, "--enable-native-access=com.sun.jna", "-p", ChildJvm.path(),
                "--patch-module", "io.mcpwire.platform.posix=" + Path.of("target", "test-classes").toAbsolutePath(),
                "-m", "io.mcpwire.platform.posix/" + JnaFromCacheChild.class.getName(), report.toString());
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && Path.of(xdg).isAbsolute() ? Path.of(xdg, "mcpwire") : home.resolve(".cache/mcpwire");
        for (int start = 0; start < 2; start++) { // the first unpacks, the second finds the copy
            ChildJvm.Result r = ChildJvm.run(cmd, "", false, Duration.ofSeconds(60));
            assertEquals(0, r.exitCode(), r::describe);
            List<String> lines = Files.readAllLines(report);
            assertEquals("boot path null", lines.get(0), r::describe);
            assertEquals(List.of(JnaDispatchCache.cachedCopy(base).orElseThrow().resolve(JnaDispatchCache.libraryName()).toString()),
                    lines.subList(1, lines.size()), r::describe);
            // Every start (Runtime.exec too) builds a ProcessBuilder; ProcessImpl is no sign, as JDK 25's
            // System.getenv initialises it without starting anything.
            assertFalse(Files.readString(classLog).contains("java.lang.ProcessBuilder "), "no process started");
        }
    }

    private static byte[] jarsCopy() throws IOException {
        try (InputStream in = Platform.class.getResourceAsStream("/com/sun/jna/" + Platform.RESOURCE_PREFIX + "/"
                + JnaDispatchCache.libraryName())) {
            return in.readAllBytes();
        }
    }
}
