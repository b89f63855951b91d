package io.mcpwire.benchmarks.harness;

import java.util.List;
import java.util.stream.Stream;

/**
 * Two peers that run the same server code on the same JDK with the same start-up aid and differ in
 * one thing, the transport: the headline comparisons. The ratio is candidate over baseline.
 */
record Pair(String title, String baseline, String candidate) {

    /** The transport pairs, each the SDK's own transport against mcpwire's under the same server. */
    static final List<Pair> HEADLINE = List.of(
            new Pair("official SDK 2.2 legacy server, immediate mode: own transport -> bridge", "official-imm", "official-imm-bridge"),
            new Pair("official SDK 2.2 legacy server, default mode: own transport -> bridge", "official", "official-bridge"),
            new Pair("official SDK 2.2 2026-07-28 server: StdioMcpTransport -> McpwireStdioMcpTransport",
                    "official-modern", "official-modern-bridge"),
            new Pair("Kotlin SDK 0.16: own transport -> McpwireStdio.transport()", "kotlin", "kotlin-mcpwire"),
            new Pair("Spring AI 2.0.1: own transport -> mcpwire's starter", "spring", "spring-mcpwire"),
            new Pair("Quarkus MCP 1.10.1: own transport -> mcpwire-quarkus", "quarkus", "quarkus-mcpwire"),
            new Pair("Kotlin SDK 0.16 on JDK 25: own transport -> McpwireStdio.transport(), FFM provider", "kotlin-25", "kotlin-mcpwire-25"),
            new Pair("official SDK 2.2 legacy server, immediate mode, on JDK 25: own transport -> bridge, FFM provider",
                    "official-imm-25", "official-imm-bridge-25"));

    /**
     * What the transport costs: mcpwire's demo server against the tuned floor, a loop with no
     * transport at all, on one thread ({@code line-echo}) and with a writer thread as mcpwire's
     * transport has ({@code line-echo-2t}, the fair floor for a transport that writes on a thread of its own).
     */
    static final List<Pair> FLOORS = List.of(
            new Pair("what the transport costs: the tuned floor -> mcpwire's demo", "line-echo", "mcpwire"),
            new Pair("what the transport costs: the tuned floor with a writer thread -> mcpwire's demo", "line-echo-2t", "mcpwire"));

    /**
     * What changed since an earlier build ({@code --baseline DIR}): the demo server built in another
     * checkout against this build's, on the same JDK with the same aid, so that "no slower than
     * before" is a ratio with an interval from one run.
     */
    static final Pair SINCE = new Pair("since a baseline build: the demo built at --baseline -> this build", "mcpwire-base", "mcpwire");

    /** Whether a pair, a floor or the baseline comparison names {@code peer}: those run more rounds and the open loop. */
    static boolean compared(String peer) {
        return peersOfPairs().contains(peer) || peer.equals(SINCE.baseline());
    }

    /** Every peer that a pair or a floor names. */
    static List<String> peersOfPairs() {
        return Stream.concat(HEADLINE.stream(), FLOORS.stream()).flatMap(p -> Stream.of(p.baseline(), p.candidate())).distinct().toList();
    }
}
