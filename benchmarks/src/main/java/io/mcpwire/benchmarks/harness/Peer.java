package io.mcpwire.benchmarks.harness;

import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A server under test: its name, what kind of server it is, the protocol era it speaks, how it is
 * started, a line saying what it is, and what its {@code echo} tool answers.
 */
record Peer(String name, Kind kind, Era era, Launch launch, String what, EchoText echoText) {

    Peer(String name, Kind kind, Era era, Launch launch, String what) {
        this(name, kind, era, launch, what, EchoText.AS_SENT);
    }

    /** What a peer's {@code echo} tool returns as its text content. */
    enum EchoText {
        /** The text it was given. */
        AS_SENT,
        /**
         * What Spring AI's default result converter makes of a tool's {@code String}, the same on
         * either transport: the text as it is when Jackson reads a JSON value at its start (Spring
         * AI's mapper allows trailing text), else the text written out as a JSON string, quotes
         * included.
         */
        SPRING_AI_RESULT;

        /** Spring AI's own mapper setting: a value followed by anything reads as JSON. */
        private static final JsonMapper SPRING_AI_MAPPER = JsonMapper.builder()
                .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

        /** The text content an {@code echo} of {@code payload} must answer. */
        String answered(Payload payload) {
            if (this == AS_SENT || readsAsJson(payload.text())) {
                return payload.text();
            }
            return "\"" + payload.wire() + "\"";
        }

        private static boolean readsAsJson(String text) {
            try {
                SPRING_AI_MAPPER.readTree(text);
                return true;
            } catch (JacksonException notJson) {
                return false;
            }
        }
    }

    /** TechEmpower's labels: a framework as its users run it, or a hand-written loop. */
    enum Kind {
        /** A framework as its users run it. */
        REALISTIC,
        /** A hand-written server: the demo, the floors, {@code cat}. */
        STRIPPED;

        String label() {
            return this == REALISTIC ? "Realistic" : "Stripped";
        }
    }

    /** How a peer's process starts. */
    sealed interface Launch {
        /** A JVM: {@code java}, then the start-up aid's options (see {@link StartupAids}), then these arguments. */
        record Jvm(Jdk jdk, List<String> arguments) implements Launch {
        }

        /** Any other program, started as it is. */
        record Program(List<String> command) implements Launch {
        }
    }

    boolean jvm() {
        return launch instanceof Launch.Jvm;
    }

    /** Whether it speaks MCP (all but {@code cat}). */
    boolean mcp() {
        return era != Era.LINES;
    }
}
