package io.mcpwire.benchmarks.harness;

import java.nio.charset.StandardCharsets;

/**
 * What the harness says to a peer in the era it speaks, and what each answer must be. In the
 * legacy era a session opens with {@code initialize} and round trips are {@code ping}s; in the
 * 2026-07-28 era every request carries the version and the client's capabilities in
 * {@code params._meta}, nothing opens a session, and a round trip is {@code server/discover}.
 */
final class Requests {
    static final String MODERN_VERSION = "2026-07-28";
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + MODERN_VERSION
            + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcpwire-bench\",\"version\":\"1\"}}}\n";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

    private final Era era;
    private final Peer.EchoText echoText;

    Requests(Era era, Peer.EchoText echoText) {
        this.era = era;
        this.echoText = echoText;
    }

    /** What to say to {@code peer}. */
    static Requests to(Peer peer) {
        return new Requests(peer.era(), peer.echoText());
    }

    /** The request that opens a session (id 0), whose answer ends a cold start. */
    byte[] opening() {
        return ascii(era == Era.MODERN ? roundTripText(0) : INITIALIZE);
    }

    Expected openingAnswer() {
        return switch (era) {
            case LEGACY -> new Expected.Initialized();
            case MODERN -> new Expected.Discovered();
            case LINES -> new Expected.SameLine();
        };
    }

    /** What follows the opening's answer: {@code notifications/initialized} in the legacy era, else nothing. */
    byte[] afterOpening() {
        return era == Era.LEGACY ? ascii(INITIALIZED) : new byte[0];
    }

    /** The smallest request with an answer: {@code ping}, or {@code server/discover} in the modern era. */
    byte[] roundTrip(long id) {
        return ascii(roundTripText(id));
    }

    Expected roundTripAnswer() {
        return switch (era) {
            case LEGACY -> new Expected.Pong();
            case MODERN -> new Expected.Discovered();
            case LINES -> new Expected.SameLine();
        };
    }

    private String roundTripText(long id) {
        return era == Era.MODERN
                ? "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"server/discover\",\"params\":{" + META + "}}\n"
                : "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}\n";
    }

    /** A {@code tools/call echo} of {@code text}, a text that needs only JSON's usual escapes. */
    EchoCall echo(String text) {
        return echo(Payload.of(text));
    }

    /** A {@code tools/call echo} of {@code payload}, as the bytes before its id and after it. */
    EchoCall echo(Payload payload) {
        String tail = ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"" + payload.wire() + "\"}"
                + (era == Era.MODERN ? "," + META : "") + "}}\n";
        String answered = echoText.answered(payload);
        return new EchoCall(ascii("{\"jsonrpc\":\"2.0\",\"id\":"), tail.getBytes(StandardCharsets.UTF_8),
                era == Era.LINES ? new Expected.SameLine() : new Expected.Echoed(answered, era == Era.MODERN));
    }

    /** One echo call: a request is {@code head}, its id, {@code tail}; its answer must be {@code expected}. */
    record EchoCall(byte[] head, byte[] tail, Expected expected) {
        byte[] line(long id) {
            byte[] digits = ascii(Long.toString(id));
            byte[] line = new byte[head.length + digits.length + tail.length];
            System.arraycopy(head, 0, line, 0, head.length);
            System.arraycopy(digits, 0, line, head.length, digits.length);
            System.arraycopy(tail, 0, line, head.length + digits.length, tail.length);
            return line;
        }
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The training session for a start-up aid: an opening, a listing, a call and a round trip, then end of input. */
    byte[] trainingSession() {
        String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"" + (era == Era.MODERN ? ",\"params\":{" + META + "}" : "") + "}\n";
        return ascii(new String(opening(), StandardCharsets.US_ASCII) + new String(afterOpening(), StandardCharsets.US_ASCII)
                + list + new String(echo("train").line(3), StandardCharsets.US_ASCII) + roundTripText(4));
    }
}
