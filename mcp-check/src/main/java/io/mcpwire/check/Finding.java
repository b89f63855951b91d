package io.mcpwire.check;

/**
 * One thing wrong with a server's wire or its ending.
 *
 * @param kind   what is wrong
 * @param phase  when it showed
 * @param detail what was seen, quoted where it is the server's output
 * @param advice the likely cause and what to do, where one can be told; empty otherwise
 */
public record Finding(Kind kind, Phase phase, String detail, String advice) {

    /** What is wrong. */
    public enum Kind {
        /** A line on stdout that is not a JSON-RPC message. */
        STRAY_OUTPUT,
        /** Bytes without a newline glued in front of a JSON-RPC message. */
        GLUED_OUTPUT,
        /** A request never answered. */
        MISSING_ANSWER,
        /** A request answered more than once. */
        DUPLICATE_ANSWER,
        /** An answer to no request the checker sent. */
        UNKNOWN_ANSWER,
        /** The server did not exit within the time allowed after end of input. */
        NO_EXIT,
        /** The server exited with a status other than 0 after end of input. */
        EXIT_STATUS,
        /**
         * A legacy server that never answered the {@code server/discover} probe: every host that
         * probes waits out its probe timeout before it falls back to {@code initialize}.
         */
        PROBE_UNANSWERED,
        /** The server exited, or stopped answering, after the probe: a host that probes loses it. */
        PROBE_FATAL,
        /** No session could be opened in any era both sides speak: the server refused or garbled the opening. */
        NO_SESSION,
        /** A result that breaks the era's rules, such as a modern result without {@code resultType}. */
        MALFORMED_RESULT,
        /** In the 2026-07-28 era, a JSON-RPC request written by the server: "The server MUST NOT write JSON-RPC requests to stdout". */
        SERVER_REQUEST,
        /**
         * In the 2026-07-28 era, a {@code notifications/message} although no request asked for log
         * messages ({@code io.modelcontextprotocol/logLevel} in its {@code _meta}).
         */
        UNASKED_LOG_MESSAGE,
        /** A process the server started (or one of theirs) still running after the server had exited. */
        LEFT_RUNNING
    }
}
