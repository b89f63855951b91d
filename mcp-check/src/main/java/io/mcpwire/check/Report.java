package io.mcpwire.check;

import io.mcpwire.protocol.ProtocolEra;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * What a check found.
 *
 * @param command        the server's command line
 * @param era            the era spoken, the version agreed, and why
 * @param findings       everything wrong, in the order seen
 * @param openMillis     time from start to the answer that opened the session ({@code initialize}
 *                       in the legacy era, the {@code server/discover} probe in the modern one);
 *                       empty when no session opened
 * @param roundTripP50Micros the median round trip of the era's cheapest request ({@code ping},
 *                       or {@code server/discover}); empty when none was answered
 * @param exitStatus     the exit status after end of input; empty when it did not exit in time
 * @param stderrBytes    how much the server wrote to stderr
 * @param stderrHead     its first lines
 * @param firstAnswerMillis time from the server's start to its first answer; empty when none came
 * @param residentBytes  the server's resident memory after the session, before end of input;
 *                       empty where the OS does not tell
 */
public record Report(List<String> command, EraVerdict era, List<Finding> findings, OptionalDouble openMillis,
                     OptionalDouble roundTripP50Micros, OptionalInt exitStatus, long stderrBytes, List<String> stderrHead,
                     OptionalDouble firstAnswerMillis, OptionalLong residentBytes) {

    /**
     * The shortest start-up budget among the hosts docs/check.md lists: a dual-era host's wait for
     * the probe before it falls back (about 3 s in Claude Code 2.1).
     */
    public static final long TIGHTEST_HOST_BUDGET_MILLIS = EraProbe.HOST_PROBE_WAIT.toMillis();

    /** Whether the wire was clean, a session opened, and the server ended well. */
    public boolean clean() {
        return findings.isEmpty();
    }

    /** The request whose round trip was timed. */
    public String roundTripMethod() {
        return era.era() == ProtocolEra.MODERN ? "server/discover" : "ping";
    }

    private static String millis(OptionalDouble v) {
        return v.isPresent() ? String.format(Locale.ROOT, "%.0f ms", v.getAsDouble()) : "no answer";
    }

    /** The report for a person. */
    public String text() {
        StringBuilder b = new StringBuilder();
        b.append("mcpwire-check: ").append(String.join(" ", command())).append('\n');
        b.append("  era: ").append(era.era().wireName()).append(", protocol ").append(era.protocolVersion().orElse("none agreed"))
                .append(" (").append(era.why()).append(")\n");
        b.append("  time to first answer: ").append(millis(firstAnswerMillis()));
        if (firstAnswerMillis().isPresent()) {
            b.append(firstAnswerMillis().getAsDouble() <= TIGHTEST_HOST_BUDGET_MILLIS ? " (within" : " (OVER")
                    .append(" the tightest host budget, ").append(TIGHTEST_HOST_BUDGET_MILLIS).append(" ms; hosts' budgets: docs/check.md)");
        }
        b.append('\n');
        b.append("  resident memory after the session: ").append(residentBytes().isPresent()
                ? String.format(Locale.ROOT, "%.1f MiB", residentBytes().getAsLong() / 1048576.0) : "not told by this OS").append('\n');
        b.append("  time to open the session (").append(era.era() == ProtocolEra.MODERN ? "server/discover" : "initialize")
                .append("): ").append(millis(openMillis())).append('\n');
        b.append("  round trip p50 (").append(roundTripMethod()).append("): ").append(roundTripP50Micros().isPresent()
                ? String.format(Locale.ROOT, "%.0f us", roundTripP50Micros().getAsDouble()) : "no answer").append('\n');
        b.append("  exit after end of input: ").append(exitStatus().isPresent()
                ? "status " + exitStatus().getAsInt() : "none in the time allowed").append('\n');
        b.append("  stderr: ").append(stderrBytes()).append(" bytes");
        stderrHead().forEach(l -> b.append("\n    | ").append(l));
        b.append('\n');
        for (Finding f : findings()) {
            b.append("  ").append(f.kind()).append(" (").append(f.phase().name().toLowerCase(Locale.ROOT).replace('_', ' '))
                    .append("): ").append(f.detail()).append('\n');
            if (!f.advice().isEmpty()) {
                b.append("    likely cause: ").append(f.advice()).append('\n');
            }
        }
        b.append(clean() ? "CLEAN: a " + era.era().wireName() + " session, nothing but JSON-RPC on stdout, every request answered once, exit 0\n"
                : "NOT CLEAN: " + findings().size() + " finding(s)\n");
        return b.toString();
    }

    private static String number(OptionalDouble v) {
        return v.isPresent() ? String.valueOf(v.getAsDouble()) : "null";
    }

    /** The report for CI, as one JSON object. */
    public String json() {
        String findings = findings().stream().map(f -> "{\"kind\":" + JsonText.string(f.kind().name()) + ",\"phase\":"
                + JsonText.string(f.phase().name()) + ",\"detail\":" + JsonText.string(f.detail()) + ",\"advice\":" + JsonText.string(f.advice()) + "}")
                .collect(Collectors.joining(","));
        return "{\"clean\":" + clean()
                + ",\"command\":[" + command().stream().map(JsonText::string).collect(Collectors.joining(",")) + "]"
                + ",\"era\":" + JsonText.string(era.era().wireName())
                + ",\"protocolVersion\":" + era.protocolVersion().map(JsonText::string).orElse("null")
                + ",\"eraReason\":" + JsonText.string(era.why())
                + ",\"probeMillis\":" + number(era.probeMillis())
                + ",\"openMillis\":" + number(openMillis())
                + ",\"roundTripMethod\":" + JsonText.string(roundTripMethod())
                + ",\"roundTripP50Micros\":" + number(roundTripP50Micros())
                + ",\"exitStatus\":" + (exitStatus().isPresent() ? exitStatus().getAsInt() : "null")
                + ",\"firstAnswerMillis\":" + number(firstAnswerMillis())
                + ",\"residentBytes\":" + (residentBytes().isPresent() ? residentBytes().getAsLong() : "null")
                + ",\"stderrBytes\":" + stderrBytes()
                + ",\"stderrHead\":[" + stderrHead().stream().map(JsonText::string).collect(Collectors.joining(",")) + "]"
                + ",\"findings\":[" + findings + "]}\n";
    }
}
