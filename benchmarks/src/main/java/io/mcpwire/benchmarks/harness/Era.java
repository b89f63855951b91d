package io.mcpwire.benchmarks.harness;

/** Which protocol a peer speaks, and so what the harness sends it. */
enum Era {
    /** The {@code initialize} handshake, then {@code ping} and {@code tools/call}. */
    LEGACY,
    /**
     * MCP 2026-07-28: no handshake, every request carries its version and the client's
     * capabilities in {@code params._meta}, no {@code ping} ({@code server/discover} instead), and
     * every result says {@code resultType: complete}.
     */
    MODERN,
    /** Not MCP: a process that sends each line back ({@code cat}), the pipe's own limit. */
    LINES
}
