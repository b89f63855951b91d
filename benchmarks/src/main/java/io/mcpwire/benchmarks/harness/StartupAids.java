package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Peer.Launch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The start-up aid every JVM peer can run with, made the same way for each, mcpwire's demo
 * included: on JDK 17 a dynamic class data archive ({@code -XX:ArchiveClassesAtExit}), on JDK 25 an
 * ahead-of-time cache ({@code -XX:AOTCacheOutput}, without method profiles, as {@code ./demo} makes
 * its own), each from one training run on its era's session ({@link Requests#trainingSession}).
 * Without the aid a JVM starts with the JDK's default class data archive only. Every JVM peer
 * also sends the JVM's own log to stderr, so that nothing the JVM says reaches the wire.
 */
final class StartupAids {
    /** Whether a peer starts with its aid. */
    enum Aid {
        NONE, ARCHIVE;

        String label() {
            return this == NONE ? "no aid" : "aid";
        }
    }

    /** How long a training run may take to answer its session, and then to write its aid. */
    private static final int ANSWER_SECONDS = 60;
    private static final int EXIT_SECONDS = 60;

    private final Path dir;
    private final Path root;
    private final Set<String> made = new HashSet<>();

    StartupAids(Path root) {
        this.root = root;
        this.dir = root.resolve("benchmarks/target/aids");
    }

    /** The command that starts {@code peer}, with its aid when asked for and made. */
    List<String> command(Peer peer, Aid aid) {
        if (peer.launch() instanceof Launch.Program program) {
            return program.command();
        }
        Launch.Jvm jvm = (Launch.Jvm) peer.launch();
        List<String> command = new ArrayList<>(List.of(jvm.jdk().java()));
        if (aid == Aid.ARCHIVE && made.contains(peer.name())) {
            command.add((jvm.jdk().aotCache() ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + file(peer, jvm.jdk()));
        }
        command.addAll(common(jvm.jdk()));
        command.addAll(jvm.arguments());
        return command;
    }

    /** Whether {@code peer} has its aid: a JVM peer whose training run made one. */
    boolean has(Peer peer) {
        return made.contains(peer.name());
    }

    /** Makes each JVM peer's aid, or reuses one left by an earlier run when {@code keep}; says on stderr what failed. */
    void train(List<Peer> peers, boolean keep) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        for (Peer p : peers) {
            if (!(p.launch() instanceof Launch.Jvm jvm)) {
                continue;
            }
            Path file = file(p, jvm.jdk());
            if (!(keep && Files.exists(file))) {
                Files.deleteIfExists(file);
                trainOne(p, jvm, file);
            }
            if (Files.exists(file) && Files.size(file) > 0) {
                made.add(p.name());
            } else {
                System.err.println("bench: no start-up aid for " + p.name() + " (see " + log(p) + ")");
            }
        }
    }

    private void trainOne(Peer p, Launch.Jvm jvm, Path file) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(jvm.jdk().java()));
        if (jvm.jdk().aotCache()) {
            // No method profiles (JEP 515): replayed, they made the demo's cold start slower.
            command.addAll(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining", "-XX:AOTCacheOutput=" + file));
        } else {
            command.add("-XX:ArchiveClassesAtExit=" + file);
        }
        command.addAll(common(jvm.jdk()));
        command.addAll(jvm.arguments());
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.to(log(p).toFile()));
        Requests requests = Requests.to(p);
        try (PeerProcess proc = new PeerProcess(builder)) {
            proc.send(requests.trainingSession());
            int answers = 0;
            long deadline = System.nanoTime() + ANSWER_SECONDS * 1_000_000_000L;
            while (answers < 4 && System.nanoTime() < deadline) { // the session's four requests
                long id = proc.readId();
                if (id == -2) {
                    break;
                }
                answers += id >= 0 ? 1 : 0;
            }
            proc.endInput();
            // A server that does not end at end of input is asked to, as a signal asks: the JVM
            // writes its archive on the way out either way.
            if (!proc.awaitEnd(5)) {
                proc.terminate();
                proc.awaitEnd(EXIT_SECONDS);
            }
        }
    }

    private Path file(Peer p, Jdk jdk) {
        return dir.resolve(p.name() + "-jdk" + jdk.feature() + (jdk.aotCache() ? ".aot" : ".jsa"));
    }

    private Path log(Peer p) {
        return dir.resolve(p.name() + "-training.log");
    }

    /** What every JVM peer runs with, aided or not: the JVM's log on stderr; native access on 22 and newer, for JNA. */
    private static List<String> common(Jdk jdk) {
        List<String> options = new ArrayList<>(List.of("-Xlog:disable", "-Xlog:all=warning:stderr"));
        if (jdk.feature() >= 22) {
            options.add("--enable-native-access=ALL-UNNAMED");
        }
        return options;
    }
}
