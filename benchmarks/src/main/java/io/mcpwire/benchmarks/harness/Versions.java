package io.mcpwire.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The versions the header records: each runtime (the JDKs, Node) and each library a peer runs on,
 * read from what the peers load where it says (their jars' names, the Node packages'
 * {@code package.json}), else from the pom that builds them (the Kotlin example's shaded jar keeps
 * none), so that the header does not drift from the build.
 */
final class Versions {
    private final Path root;

    Versions(Path root) {
        this.root = root;
    }

    /** {@code JDK 17.0.15+6 (...), JDK 25..., Node v20...}. */
    String runtimes(Jdk jdk, Optional<Jdk> jdk25) {
        List<String> parts = new ArrayList<>();
        parts.add("JDK " + jdk.version() + " (JVM peers)");
        jdk25.filter(j -> j.feature() != jdk.feature()).ifPresent(j -> parts.add("JDK " + j.version() + " (mcpwire-25)"));
        parts.add("Node " + node().orElse("not found") + " (TypeScript peers)");
        parts.add("harness on JDK " + Jdk.current().version());
        return String.join(", ", parts);
    }

    String libraries() {
        Path lib = root.resolve("benchmarks/target/peer-lib");
        List<String> parts = new ArrayList<>();
        jarVersion(lib.resolve("sdk"), "mcp-core").ifPresent(v -> parts.add("official MCP Java SDK " + v));
        jarVersion(lib.resolve("sdk"), "reactor-core").ifPresent(v -> parts.add("Reactor " + v));
        jarVersion(lib.resolve("floor"), "jackson-databind").ifPresent(v -> parts.add("Jackson " + v));
        jarVersion(lib.resolve("mcpwire"), "jna").ifPresent(v -> parts.add("JNA " + v));
        // The shaded example jar keeps no Maven metadata of the SDK's: its pom pins the version the default build uses.
        Path kotlinPom = root.resolve("examples/kotlin-server/pom.xml");
        pomProperty(kotlinPom, "kotlin-sdk.version").ifPresent(v -> parts.add("Kotlin MCP SDK " + v));
        pomProperty(kotlinPom, "kotlin.version").ifPresent(v -> parts.add("Kotlin " + v));
        Path spring = root.resolve("benchmarks/target/spring/spring-ai-2-without-mcpwire/lib");
        jarVersion(spring, "spring-ai-mcp").ifPresent(v -> parts.add("Spring AI " + v));
        jarVersion(spring, "spring-boot").ifPresent(v -> parts.add("Spring Boot " + v));
        jarVersion(spring, "mcp-core").ifPresent(v -> parts.add("(its MCP SDK " + v + ")"));
        Path quarkus = root.resolve("examples/quarkus-server/target/without-mcpwire/lib/main");
        jarVersion(quarkus, "io.quarkiverse.mcp.quarkus-mcp-server-core").ifPresent(v -> parts.add("Quarkus MCP " + v));
        jarVersion(quarkus, "io.quarkus.quarkus-core").ifPresent(v -> parts.add("Quarkus " + v));
        Path modules = root.resolve("benchmarks/node/node_modules/@modelcontextprotocol");
        npmVersion(modules.resolve("sdk")).ifPresent(v -> parts.add("TypeScript SDK " + v));
        npmVersion(modules.resolve("server")).ifPresent(v -> parts.add("TypeScript SDK server " + v));
        return String.join(", ", parts);
    }

    /** The version in {@code NAME-VERSION.jar} in {@code dir}. */
    static Optional<String> jarVersion(Path dir, String name) {
        Pattern p = Pattern.compile(Pattern.quote(name) + "-(\\d[^-]*(?:-[A-Z][A-Za-z0-9.]*)?)\\.jar");
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> p.matcher(f.getFileName().toString())).filter(Matcher::matches).map(m -> m.group(1)).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The first {@code <name>value</name>} of a pom. */
    private static Optional<String> pomProperty(Path pom, String name) {
        try {
            Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(pom));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> npmVersion(Path module) {
        try {
            Matcher m = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"").matcher(Files.readString(module.resolve("package.json")));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> node() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return p.waitFor() == 0 ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
