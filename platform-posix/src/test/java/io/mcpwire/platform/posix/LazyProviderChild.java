package io.mcpwire.platform.posix;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM that constructs the provider as the service loader does and asks what provider
 * selection asks first, then reports it to the file named by its argument.
 */
public final class LazyProviderChild {
    private LazyProviderChild() {
    }

    public static void main(String[] args) throws Exception {
        PosixDescriptors p = PosixDescriptors.class.getConstructor().newInstance();
        Files.writeString(Path.of(args[0]), "FOUND " + p.name() + " priority " + p.priority() + "\n", StandardCharsets.UTF_8);
    }
}
