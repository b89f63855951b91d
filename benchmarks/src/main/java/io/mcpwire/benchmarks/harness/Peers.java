package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Harness.Peer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The servers the harness measures, and how each is started. */
final class Peers {
    private Peers() {
    }

    /**
     * Every peer, or those named by {@code --only a,b} (for profiling one server, with
     * {@code MCPWIRE_BENCH_JVM_ARGS}, say a JFR recording); {@code mcpwire-profiled} only when named.
     */
    static List<Peer> chosen(Path root, String[] args) {
        List<Peer> all = all(root);
        int only = Arrays.asList(args).indexOf("--only");
        if (only >= 0) {
            List<String> names = List.of(args[only + 1].split(","));
            return all.stream().filter(p -> names.contains(p.name())).toList();
        }
        return all.stream().filter(p -> !p.name().equals("mcpwire-profiled")).toList();
    }

    private static List<Peer> all(Path root) {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = root.resolve("benchmarks/target/classes") + File.pathSeparator + root.resolve("benchmarks/target/lib") + "/*";
        List<String> mcpwire = new ArrayList<>(List.of(javaBin));
        List.of(System.getenv().getOrDefault("MCPWIRE_BENCH_JVM_ARGS", "").split(" ")).stream()
                .filter(a -> !a.isBlank()).forEach(mcpwire::add);
        mcpwire.add("@" + root.resolve("examples/target/server.args")); // exactly as ./demo server starts it
        String official = "io.mcpwire.benchmarks.peers.OfficialSdkServer";
        List<Peer> peers = new ArrayList<>(List.of(
                new Peer("mcpwire", mcpwire, true),
                // The JVM's practical limit, measured right after mcpwire in every round: the two are
                // compared, and the machine's speed drifts by more than their difference between turns
                // that lie a dozen peers apart.
                new Peer("line-echo", List.of(javaBin, "-cp", cp, "io.mcpwire.benchmarks.peers.LineEchoServer"), true),
                // The same in the lean profile that ./demo server --lean starts: less idle memory, a
                // little less warm throughput (docs/hosts.md).
                new Peer("mcpwire-lean", List.of(javaBin, "@" + root.resolve("examples/lean.args"),
                        "@" + root.resolve("examples/target/server.args")), true),
                new Peer("official", List.of(javaBin, "-cp", cp, official), true),
                new Peer("official-imm", List.of(javaBin, "-cp", cp, official, "--immediate"), true),
                new Peer("official-bridge", List.of(javaBin, "-cp", cp, official, "--bridge"), true),
                // The example Spring AI server (Spring AI 2.0.1, Boot 4.0.7) on its own stdio transport and
                // with mcpwire's starter; both with Spring AI's documented stdio settings (no banner, no
                // console log pattern), without which the first cannot be measured at all.
                new Peer("spring", spring(javaBin, root, "spring-ai-2-without-mcpwire"), true),
                new Peer("spring-mcpwire", spring(javaBin, root, "spring-ai-2"), true),
                // The example Kotlin SDK 0.16.0 server on the SDK's own stdio transport and on
                // McpwireStdio.transport(); both with kotlin-logging's start-up line off and the example's
                // stdout logger at WARN, without which the first cannot be measured at all.
                new Peer("kotlin", kotlin(javaBin, root, "--sdk-transport"), true),
                new Peer("kotlin-mcpwire", kotlin(javaBin, root), true),
                new Peer("typescript", List.of("node", root.resolve("benchmarks/node/server.mjs").toString()), true),
                // The TypeScript SDK 2.4.0's dual-era stdio entry, spoken to in the legacy era as the rest.
                new Peer("typescript-2", List.of("node", root.resolve("benchmarks/node/server-v2.mjs").toString()), true),
                new Peer("cat", List.of("cat"), false),
                // The demo server with a JFR recording.
                new Peer("mcpwire-profiled", List.of(javaBin, "-cp", cp, "io.mcpwire.benchmarks.peers.ProfiledDemoServer",
                        System.getProperty("java.io.tmpdir") + "/mcpwire-profile-%p.jfr"), true)));
        // The demo server on JDK 25 with the FFM provider and an ahead-of-time cache, when
        // benchmarks/run found a JDK 25 and made server-25.args and the cache.
        Path args25 = root.resolve("examples/target/server-25.args");
        String jdk25 = System.getProperty("mcpwire.jdk25", "");
        if (!jdk25.isEmpty() && Files.exists(args25)) {
            peers.add(2, new Peer("mcpwire-25", List.of(Path.of(jdk25, "bin", "java").toString(), "@" + args25), true));
        }
        // The example Spring AI server with the starter on JDK 25, extracted and started from an
        // ahead-of-time cache trained on a recorded session (the recipe in docs/spring.md).
        Path springAot = root.resolve("examples/spring-ai-server/target/spring-ai-2-aot");
        if (!jdk25.isEmpty() && Files.exists(springAot.resolve("app.aot"))) {
            peers.add(new Peer("spring-mcpwire-25", List.of(Path.of(jdk25, "bin", "java").toString(),
                    "-XX:AOTCache=" + springAot.resolve("app.aot"), "-Xlog:disable", "-Xlog:all=warning:stderr",
                    "-jar", springAot.resolve("spring-ai-server.jar").toString(),
                    "--spring.main.banner-mode=off", "--logging.pattern.console="), true));
        }
        return peers;
    }

    private static List<String> kotlin(String javaBin, Path root, String... args) {
        List<String> command = new ArrayList<>(List.of(javaBin, "-Dkotlin-logging.logStartupMessage=false",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-jar",
                root.resolve("examples/kotlin-server/target/sdk-0.16/kotlin-server.jar").toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static List<String> spring(String javaBin, Path root, String variant) {
        return List.of(javaBin, "-jar", root.resolve("examples/spring-ai-server/target/" + variant + "/spring-ai-server.jar").toString(),
                "--spring.main.banner-mode=off", "--logging.pattern.console=");
    }
}
