package io.mcpwire.platform.posix;

import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * JNA's search path for libraries named without a directory, on Linux, found the way JNA finds
 * it but without a process: JNA's own list (the multiarch, 64-bit and plain {@code lib}
 * directories), then the directories {@code /etc/ld.so.conf} names, where JNA would run
 * {@code /sbin/ldconfig -p} (some 20 ms of each claim's start-up, a child process the claim does
 * not need: it opens the C library already in the process). Set as {@code jna.platform.library.path}
 * before JNA reads it, unless the user set it.
 */
final class LinuxLibraryPath {
    private static final String PROPERTY = "jna.platform.library.path";
    private static final Path LD_SO_CONF = Path.of("/etc/ld.so.conf");
    /** Deeper {@code include}s than this are not followed (the loader's own configurations nest one deep). */
    private static final int MAX_INCLUDE_DEPTH = 4;

    private LinuxLibraryPath() {
    }

    /** Sets {@code jna.platform.library.path} on Linux, unless it is set. */
    static void setForJna() {
        if (!Platform.isLinux() || System.getProperty(PROPERTY) != null) {
            return;
        }
        System.setProperty(PROPERTY, String.join(":", directories(LD_SO_CONF)));
    }

    /** The existing directories to search, JNA's list first, then {@code conf}'s. */
    static List<String> directories(Path conf) {
        Set<String> candidates = new LinkedHashSet<>();
        String multiarch = multiarch();
        String bits = Platform.is64Bit() ? "64" : "32";
        for (String directory : new String[] {"/usr/lib/" + multiarch, "/lib/" + multiarch, "/usr/lib" + bits, "/lib" + bits, "/usr/lib", "/lib"}) {
            candidates.add(directory);
        }
        readConf(conf, candidates, 0);
        List<String> existing = new ArrayList<>();
        for (String directory : candidates) {
            if (Files.isDirectory(Path.of(directory))) {
                existing.add(directory);
            }
        }
        return existing;
    }

    /** The Debian multiarch tuple JNA uses for this machine. */
    private static String multiarch() {
        if (Platform.isIntel()) {
            return Platform.is64Bit() ? "x86_64-linux-gnu" : "i386-linux-gnu";
        }
        if (Platform.isPPC()) {
            return (Platform.is64Bit() ? "powerpc64" : "powerpc") + "-linux-gnu";
        }
        if (Platform.isARM()) {
            return "arm-linux-gnueabi";
        }
        return Platform.ARCH + (Platform.ARCH.equals("mips64el") ? "-linux-gnuabi64" : "-linux-gnu");
    }

    /** Adds the directories {@code conf} names, following its {@code include} lines. */
    private static void readConf(Path conf, Set<String> directories, int depth) {
        List<String> lines;
        try {
            lines = Files.readAllLines(conf);
        } catch (IOException | RuntimeException e) {
            return; // no such file, or unreadable: nothing to add
        }
        for (String raw : lines) {
            int comment = raw.indexOf('#');
            String line = (comment >= 0 ? raw.substring(0, comment) : raw).strip();
            if (line.startsWith("include") && line.length() > 7 && Character.isWhitespace(line.charAt(7))) {
                if (depth < MAX_INCLUDE_DEPTH) {
                    for (Path included : expand(conf, line.substring(8).strip())) {
                        readConf(included, directories, depth + 1);
                    }
                }
            } else if (line.startsWith("/")) {
                int end = 0;
                while (end < line.length() && !Character.isWhitespace(line.charAt(end)) && line.charAt(end) != '=') {
                    end++;
                }
                directories.add(line.substring(0, end));
            }
        }
    }

    /** The files an {@code include} pattern names, relative to {@code conf}'s directory, sorted; {@code *} in the file name only. */
    private static List<Path> expand(Path conf, String pattern) {
        Path path = conf.resolveSibling(pattern);
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        int star = name.indexOf('*');
        if (star < 0) {
            return List.of(path);
        }
        String prefix = name.substring(0, star);
        String suffix = name.substring(star + 1);
        if (suffix.indexOf('*') >= 0) {
            return List.of(); // one * only, as the loader's own configurations use
        }
        List<Path> matches = new ArrayList<>();
        try (var entries = Files.newDirectoryStream(path.getParent())) {
            for (Path entry : entries) {
                String n = entry.getFileName().toString();
                if (n.length() >= prefix.length() + suffix.length() && n.startsWith(prefix) && n.endsWith(suffix)) {
                    matches.add(entry);
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        matches.sort(null);
        return matches;
    }
}
