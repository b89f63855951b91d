package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Peer.Kind;
import io.mcpwire.benchmarks.harness.Peer.Launch;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The servers the harness measures and how each starts. Every JVM peer runs on a class path of its
 * own holding only what it needs ({@code benchmarks/target/peer-lib/}: the floor on Jackson, the
 * official SDK's peers on the SDK, their bridged twins on the SDK and mcpwire), never the harness's
 * or JMH's, and its start-up aid is made by {@link StartupAids} alike for all.
 */
final class Peers {
    private final Path root;
    private final Path target;
    private final Jdk jdk;
    private final Optional<Jdk> jdk25;

    /** Peers on {@code jdk}; {@code mcpwire-25} on {@code jdk25} when there is one. */
    Peers(Path root, Jdk jdk, Optional<Jdk> jdk25) {
        this.root = root;
        this.target = root.resolve("benchmarks/target");
        this.jdk = jdk;
        this.jdk25 = jdk25;
    }

    /** The peers {@code options} asks for: those named by {@code --only}, or the pairs' with {@code --pairs}, or the full run's. */
    List<Peer> chosen(RunOptions options) throws IOException, InterruptedException {
        List<String> names = new ArrayList<>(options.only().orElse(options.pairsOnly() ? Pair.peersOfPairs() : FULL_RUN));
        if (options.baseline().isPresent() && !names.contains(Pair.SINCE.baseline())) {
            names.add(Pair.SINCE.baseline());
        }
        List<Peer> all = all(options.baseline());
        List<Peer> chosen = all.stream().filter(p -> names.contains(p.name())).toList();
        List<String> unknown = names.stream().filter(n -> all.stream().noneMatch(p -> p.name().equals(n))).toList();
        if (!unknown.isEmpty()) {
            System.err.println("bench: no such peer here, left out: " + String.join(", ", unknown));
        }
        if (chosen.stream().anyMatch(p -> p.name().startsWith("spring"))) {
            extractSpring();
        }
        return chosen;
    }

    /** The full run's peers: the pairs, the floor, and the others users pick from. */
    private static final List<String> FULL_RUN = Stream.concat(Pair.peersOfPairs().stream(),
            Stream.of("line-echo-naive", "mcpwire-25", "typescript", "typescript-2", "cat")).toList();

    private List<Peer> all(Optional<Path> baseline) throws IOException {
        String peersJar = jar(target, "-peers.jar").toString();
        String floor = classPath(peersJar, "floor");
        String sdk = classPath(peersJar, "sdk");
        String bridged = classPath(peersJar, "sdk", "mcpwire");
        String peers = "io.mcpwire.benchmarks.peers.";
        List<Peer> all = new ArrayList<>(List.of(
                jvm("line-echo", Kind.STRIPPED, Era.LEGACY, "the tuned floor: bytes in, a streaming parse, one long-lived generator, one thread",
                        "-cp", floor, peers + "TunedEchoServer"),
                jvm("line-echo-2t", Kind.STRIPPED, Era.LEGACY, "the tuned floor with a writer thread",
                        "-cp", floor, peers + "TunedEchoServer", "--writer-thread"),
                jvm("line-echo-naive", Kind.STRIPPED, Era.LEGACY, "the naive floor: readLine, readTree(String), writeValueAsBytes",
                        "-cp", floor, peers + "NaiveLineEchoServer"),
                jvm("mcpwire", Kind.STRIPPED, Era.LEGACY, "mcpwire's demo server, started as ./demo server starts it",
                        "@" + withoutAid(root.resolve("examples/target/server.args"), "mcpwire")),
                jvm("mcpwire-lean", Kind.STRIPPED, Era.LEGACY, "the demo server in ./demo's lean profile",
                        "@" + root.resolve("examples/lean.args"), "@" + withoutAid(root.resolve("examples/target/server.args"), "mcpwire")),
                jvm("official-imm", Kind.REALISTIC, Era.LEGACY, "official SDK 2.2, immediateExecution(true), its own stdio transport",
                        "-cp", sdk, peers + "OfficialSdkServer", "--immediate"),
                jvm("official-imm-bridge", Kind.REALISTIC, Era.LEGACY, "official-imm over mcpwire's bridge (one line changed)",
                        "-cp", bridged, peers + "OfficialSdkBridgeServer", "--immediate"),
                jvm("official", Kind.REALISTIC, Era.LEGACY, "official SDK 2.2 as written by default, its own stdio transport",
                        "-cp", sdk, peers + "OfficialSdkServer"),
                jvm("official-bridge", Kind.REALISTIC, Era.LEGACY, "official over mcpwire's bridge (one line changed)",
                        "-cp", bridged, peers + "OfficialSdkBridgeServer"),
                jvm("official-modern", Kind.REALISTIC, Era.MODERN, "official SDK 2.2's 2026-07-28 server on its StdioMcpTransport",
                        "-cp", sdk, peers + "OfficialModernServer"),
                jvm("official-modern-bridge", Kind.REALISTIC, Era.MODERN, "official-modern on mcpwire's McpwireStdioMcpTransport",
                        "-cp", bridged, peers + "OfficialModernBridgeServer"),
                jvm("kotlin", Kind.REALISTIC, Era.LEGACY, "the example Kotlin SDK 0.16 server on the SDK's stdio transport",
                        kotlin("--sdk-transport")),
                jvm("kotlin-mcpwire", Kind.REALISTIC, Era.LEGACY, "the same on McpwireStdio.transport()", kotlin()),
                spring("spring", "the example Spring AI 2.0.1 server (Boot 4.0.7), its own stdio transport", "spring-ai-2-without-mcpwire"),
                spring("spring-mcpwire", "the same with mcpwire's starter", "spring-ai-2"),
                jvm("quarkus", Kind.REALISTIC, Era.LEGACY, "the example Quarkus MCP 1.10.1 server (Quarkus 3.27.2), its own stdio transport",
                        quarkus("target/without-mcpwire/quarkus-run.jar")),
                jvm("quarkus-mcpwire", Kind.REALISTIC, Era.LEGACY, "the same with mcpwire-quarkus", quarkus("target/quarkus-app/quarkus-run.jar")),
                program("typescript", "the TypeScript SDK 1.32.2's McpServer and StdioServerTransport, Node",
                        "node", root.resolve("benchmarks/node/server.mjs").toString()),
                program("typescript-2", "the TypeScript SDK 2.4.0's serveStdio, Node, spoken to in the legacy era",
                        "node", root.resolve("benchmarks/node/server-v2.mjs").toString()),
                new Peer("cat", Kind.STRIPPED, Era.LINES, new Launch.Program(List.of("cat")), "cat: the pipe's limit"),
                jvm("mcpwire-profiled", Kind.STRIPPED, Era.LEGACY, "the demo server with a JFR recording",
                        "-cp", root.resolve("benchmarks/target/classes") + File.pathSeparator + target.resolve("lib") + "/*",
                        peers + "ProfiledDemoServer", System.getProperty("java.io.tmpdir") + "/mcpwire-profile-%p.jfr")));
        Path args25 = root.resolve("examples/target/server-25.args");
        if (jdk25.isPresent() && Files.exists(args25)) {
            // The demo server on JDK 25 with the FFM provider and the serial collector, as ./demo starts it there.
            all.add(new Peer("mcpwire-25", Kind.STRIPPED, Era.LEGACY,
                    new Launch.Jvm(jdk25.get(), List.of("@" + withoutAid(args25, "mcpwire-25"))),
                    "the demo server on JDK 25: the FFM provider, the serial collector"));
            all.addAll(jdk25Pairs(jdk25.get(), sdk, bridged));
        }
        if (baseline.isPresent()) {
            all.add(baselineDemo(baseline.get()));
        }
        return all;
    }

    /** The demo server of the checkout at {@code dir}, started by the arguments its {@code ./demo --build-only} wrote there. */
    private Peer baselineDemo(Path dir) {
        Path args = dir.resolve("examples/target/server.args");
        if (!Files.exists(args)) {
            throw new IllegalArgumentException("--baseline " + dir + ": there is no " + args + "; build it there first with ./demo --build-only");
        }
        return jvm(Pair.SINCE.baseline(), Kind.STRIPPED, Era.LEGACY, "mcpwire's demo server as built at " + dir
                + ", started as ./demo server starts it there", "@" + withoutAid(args, Pair.SINCE.baseline()));
    }

    /**
     * The JDK 25 pairs: the Kotlin server and the official SDK's legacy server in immediate mode,
     * each side on JDK 25 with the FFM provider on its class path (which mcpwire's side binds; the
     * SDK's own never loads it) and native access on, the harness' ahead-of-time cache for both.
     */
    private List<Peer> jdk25Pairs(Jdk jdk25, String sdk, String bridged) throws IOException {
        String ffm = jar(root.resolve("platform-ffm/target"), "-SNAPSHOT.jar").toString();
        String kotlinJar = root.resolve("examples/kotlin-server/target/sdk-0.16/kotlin-server.jar") + File.pathSeparator + ffm;
        List<String> kotlin = List.of("--enable-native-access=ALL-UNNAMED", "-Dkotlin-logging.logStartupMessage=false",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", kotlinJar, "io.mcpwire.examples.kotlin.KotlinServerKt");
        String peers = "io.mcpwire.benchmarks.peers.";
        return List.of(
                new Peer("kotlin-25", Kind.REALISTIC, Era.LEGACY, new Launch.Jvm(jdk25, concat(kotlin, "--sdk-transport")),
                        "kotlin on JDK 25"),
                new Peer("kotlin-mcpwire-25", Kind.REALISTIC, Era.LEGACY, new Launch.Jvm(jdk25, kotlin),
                        "kotlin-mcpwire on JDK 25, the FFM provider"),
                new Peer("official-imm-25", Kind.REALISTIC, Era.LEGACY, new Launch.Jvm(jdk25, List.of("--enable-native-access=ALL-UNNAMED",
                        "-cp", sdk + File.pathSeparator + ffm, peers + "OfficialSdkServer", "--immediate")), "official-imm on JDK 25"),
                new Peer("official-imm-bridge-25", Kind.REALISTIC, Era.LEGACY, new Launch.Jvm(jdk25, List.of("--enable-native-access=ALL-UNNAMED",
                        "-cp", bridged + File.pathSeparator + ffm, peers + "OfficialSdkBridgeServer", "--immediate")),
                        "official-imm-bridge on JDK 25, the FFM provider"));
    }

    private static List<String> concat(List<String> head, String last) {
        List<String> all = new ArrayList<>(head);
        all.add(last);
        return all;
    }

    private Peer jvm(String name, Kind kind, Era era, String what, String... arguments) {
        return jvm(name, kind, era, what, List.of(arguments));
    }

    private Peer jvm(String name, Kind kind, Era era, String what, List<String> arguments) {
        return new Peer(name, kind, era, new Launch.Jvm(jdk, arguments), what);
    }

    private static Peer program(String name, String what, String... command) {
        return new Peer(name, Kind.REALISTIC, Era.LEGACY, new Launch.Program(List.of(command)), what);
    }

    /** The peers jar, then each named directory of {@code peer-lib} as a wildcard. */
    private String classPath(String peersJar, String... libraries) {
        StringBuilder cp = new StringBuilder(peersJar);
        for (String l : libraries) {
            cp.append(File.pathSeparator).append(target.resolve("peer-lib").resolve(l)).append("/*");
        }
        return cp.toString();
    }

    private List<String> kotlin(String... args) {
        // kotlin-logging's start-up line off and the example's stdout logger at WARN: without them
        // the SDK's own transport cannot be measured at all.
        List<String> command = new ArrayList<>(List.of("-Dkotlin-logging.logStartupMessage=false",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-jar",
                root.resolve("examples/kotlin-server/target/sdk-0.16/kotlin-server.jar").toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** The example Quarkus server's fast jar, its console log and banner on stderr as Quarkus MCP's stdio extension sets them. */
    private List<String> quarkus(String jar) {
        return List.of("-jar", root.resolve("examples/quarkus-server").resolve(jar).toString());
    }

    /** The example Spring AI server, extracted (an archive takes classes from plain jars only), with Spring AI's documented stdio settings. */
    private Peer spring(String name, String what, String variant) {
        return new Peer(name, Kind.REALISTIC, Era.LEGACY, new Launch.Jvm(jdk, List.of("-jar",
                target.resolve("spring").resolve(variant).resolve("spring-ai-server.jar").toString(),
                "--spring.main.banner-mode=off", "--logging.pattern.console=")), what, Peer.EchoText.SPRING_AI_RESULT);
    }

    private void extractSpring() throws IOException, InterruptedException {
        for (String variant : List.of("spring-ai-2", "spring-ai-2-without-mcpwire")) {
            Path jar = root.resolve("examples/spring-ai-server/target/" + variant + "/spring-ai-server.jar");
            Path into = target.resolve("spring").resolve(variant);
            Path extracted = into.resolve("spring-ai-server.jar");
            if (Files.exists(extracted) && Files.getLastModifiedTime(extracted).compareTo(Files.getLastModifiedTime(jar)) >= 0) {
                continue;
            }
            Process p = new ProcessBuilder(Jdk.current().java(), "-Djarmode=tools", "-jar", jar.toString(), "extract", "--force",
                    "--destination", into.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() != 0) {
                throw new IOException("could not extract " + jar);
            }
        }
    }

    /** {@code args} without the demo's own archive or cache: the harness gives every peer its aid alike. */
    private Path withoutAid(Path args, String name) {
        try {
            Path out = target.resolve("aids").resolve(name + ".args");
            Files.createDirectories(out.getParent());
            List<String> lines = Files.exists(args) ? Files.readAllLines(args) : List.of();
            Files.write(out, lines.stream().filter(l -> !l.startsWith("-XX:SharedArchiveFile") && !l.startsWith("-XX:AOTCache")).toList());
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path jar(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(suffix)).findFirst()
                    .orElseThrow(() -> new IOException("no *" + suffix + " in " + dir + ": build with benchmarks/run first"));
        }
    }
}
