package io.mcpwire.platform.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** JNA's library search path on Linux, found without running {@code ldconfig}. */
@EnabledOnOs(value = OS.LINUX, disabledReason = "the path is JNA's on Linux only")
class LinuxLibraryPathTest {

    @Test
    void readsTheLoadersConfigurationAndItsIncludesInOrder(@TempDir Path etc) throws IOException {
        Path a = Files.createDirectory(etc.resolve("a"));
        Path b = Files.createDirectory(etc.resolve("b"));
        Path c = Files.createDirectory(etc.resolve("c"));
        Files.createDirectory(etc.resolve("conf.d"));
        Files.writeString(etc.resolve("conf.d/20-b.conf"), "# comment\n" + b + "  # trailing comment\n" + etc.resolve("missing") + "\n");
        Files.writeString(etc.resolve("conf.d/10-a.conf"), a + "\n");
        Files.writeString(etc.resolve("conf.d/ignored.txt"), c + "\n");
        Files.writeString(etc.resolve("ld.so.conf"), "include conf.d/*.conf\n" + c + "=libc6\n");

        List<String> found = LinuxLibraryPath.directories(etc.resolve("ld.so.conf"));
        List<String> tail = found.subList(found.size() - 3, found.size());
        assertEquals(List.of(a.toString(), b.toString(), c.toString()), tail, "includes sorted, then the file's own lines; no missing ones");
        assertTrue(found.indexOf(a.toString()) > found.indexOf("/usr/lib") || !found.contains("/usr/lib"), "JNA's own list first");
    }

    /** Every directory the loader's cache has libraries in is one JNA still searches. */
    @Test
    void coversEveryDirectoryOfTheLoadersCache() throws Exception {
        Path ldconfig = Path.of("/sbin/ldconfig");
        assumeTrue(Files.isExecutable(ldconfig), "no /sbin/ldconfig here");
        Process p = new ProcessBuilder(ldconfig.toString(), "-p").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        Set<String> cached = new TreeSet<>();
        out.lines().filter(l -> l.contains(" => ")).forEach(l -> cached.add(Path.of(l.substring(l.indexOf(" => ") + 4).strip()).getParent().toString()));
        assertTrue(cached.size() > 0, out);
        List<String> found = LinuxLibraryPath.directories(Path.of("/etc/ld.so.conf"));
        for (String directory : cached) {
            assertTrue(found.contains(directory) || found.contains(Path.of(directory).toRealPath().toString()),
                    () -> directory + " is in the loader's cache but not in " + found);
        }
    }
}
