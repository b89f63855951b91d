package io.mcpwire.benchmarks.harness;

/** What the answer to one request must be for {@link AnswerCheck} to count it right. */
sealed interface Expected {
    /** The result of {@code initialize}: a {@code protocolVersion}. */
    record Initialized() implements Expected {
    }

    /** The result of {@code server/discover}: {@code supportedVersions} holding 2026-07-28, and complete. */
    record Discovered() implements Expected {
    }

    /** The result of {@code ping}: an object. */
    record Pong() implements Expected {
    }

    /**
     * The result of {@code tools/call echo}: one text content equal to {@code text}, {@code isError}
     * false or absent, and in the modern era {@code resultType: complete}.
     */
    record Echoed(String text, boolean modern) implements Expected {
    }

    /** For a peer that sends the request back ({@code cat}): a JSON object with the request's id. */
    record SameLine() implements Expected {
    }
}
