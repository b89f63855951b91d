package io.mcpwire.platform.posix;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * A child JVM that loads the provider's bindings, then reports where {@code libjnidispatch} was
 * mapped from ({@code /proc/self/maps}) and whether {@code jna.boot.library.path} is still set, to
 * the file named by its argument.
 */
public final class JnaFromCacheChild {
    private JnaFromCacheChild() {
    }

    public static void main(String[] args) throws Exception {
        PosixDescriptors.binding();
        String mapped = Files.readString(Path.of("/proc/self/maps")).lines()
                .filter(l -> l.contains("jnidispatch"))
                .map(l -> l.substring(l.indexOf('/')))
                .distinct()
                .collect(Collectors.joining("\n"));
        Files.writeString(Path.of(args[0]), "boot path " + System.getProperty("jna.boot.library.path") + "\n" + mapped + "\n",
                StandardCharsets.UTF_8);
    }
}
