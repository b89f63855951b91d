package io.mcpwire.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** A JDK that peers run on: its home, its feature release, and its full version as its {@code release} file gives it. */
record Jdk(Path home, int feature, String version) {

    /** The JDK the harness runs on. */
    static Jdk current() {
        return new Jdk(Path.of(System.getProperty("java.home")), Runtime.version().feature(), System.getProperty("java.runtime.version"));
    }

    /** The JDK at {@code home}, when it has a {@code bin/java} and a readable {@code release} file. */
    static Optional<Jdk> at(String home) {
        if (home == null || home.isBlank()) {
            return Optional.empty();
        }
        Path dir = Path.of(home);
        try {
            String release = Files.readString(dir.resolve("release"));
            String version = field(release, "JAVA_RUNTIME_VERSION").or(() -> field(release, "JAVA_VERSION")).orElse("?");
            int feature = Integer.parseInt(field(release, "JAVA_VERSION").orElse("0").split("[.+-]")[0]);
            return Files.isExecutable(dir.resolve("bin/java")) ? Optional.of(new Jdk(dir, feature, version)) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> field(String release, String name) {
        return release.lines().filter(l -> l.startsWith(name + "=")).findFirst()
                .map(l -> l.substring(name.length() + 1).replace("\"", ""));
    }

    String java() {
        return home.resolve("bin/java").toString();
    }

    /** Whether its start-up aid is an ahead-of-time cache (JDK 25 and newer) rather than a class data archive. */
    boolean aotCache() {
        return feature >= 25;
    }
}
