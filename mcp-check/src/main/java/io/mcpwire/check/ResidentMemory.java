package io.mcpwire.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/** A process's resident memory, as the OS tells it: {@code /proc/PID/status} on Linux, {@code ps} on other POSIX systems. */
final class ResidentMemory {
    private ResidentMemory() {
    }

    static OptionalLong of(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            if (Files.isReadable(status)) {
                return Files.readAllLines(status, StandardCharsets.UTF_8).stream().filter(l -> l.startsWith("VmRSS:"))
                        .findFirst().map(l -> OptionalLong.of(kib(l.substring(6)) * 1024)).orElse(OptionalLong.empty());
            }
            if (System.getProperty("os.name", "").startsWith("Windows")) {
                return OptionalLong.empty();
            }
            Process ps = new ProcessBuilder("ps", "-o", "rss=", "-p", Long.toString(pid)).redirectErrorStream(true).start();
            String out = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return ps.waitFor(5, TimeUnit.SECONDS) && ps.exitValue() == 0 ? OptionalLong.of(kib(out) * 1024) : OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }

    /** "  57344 kB" or "57344": kibibytes. */
    private static long kib(String text) {
        return Long.parseLong(text.replace("kB", "").strip());
    }
}
