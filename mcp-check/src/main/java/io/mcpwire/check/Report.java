package io.mcpwire.check;

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
 * @param findings       everything wrong, in the order seen
 * @param initializeMillis time from start to the {@code initialize} answer; empty when none came
 * @param pingP50Micros  the median ping round trip; empty when no ping was answered
 * @param exitStatus     the exit status after end of input; empty when it did not exit in time
 * @param stderrBytes    how much the server wrote to stderr
 * @param stderrHead     its first lines
 * @param firstAnswerMillis time from the server's start to its first answer; empty when none came
 * @param residentBytes  the server's resident memory after the session, before end of input;
 *                       empty where the OS does not tell
 */
public record Report(List<String> command, List<Finding> findings, OptionalDouble initializeMillis,
                     OptionalDouble pingP50Micros, OptionalInt exitStatus, long stderrBytes, List<String> stderrHead,
                     OptionalDouble firstAnswerMillis, OptionalLong residentBytes) {

    /** Whether the wire was clean and the server ended well. */
    public boolean clean() {
        return findings.isEmpty();
    }

    /** The report for a person. */
    public String text() {
        StringBuilder b = new StringBuilder();
        b.append("mcpwire-check: ").append(String.join(" ", command())).append('\n');
        b.append("  time to first answer: ").append(firstAnswerMillis().isPresent()
                ? String.format(Locale.ROOT, "%.0f ms", firstAnswerMillis().getAsDouble()) : "no answer").append('\n');
        b.append("  resident memory after the session: ").append(residentBytes().isPresent()
                ? String.format(Locale.ROOT, "%.1f MiB", residentBytes().getAsLong() / 1048576.0) : "not told by this OS").append('\n');
        b.append("  time to initialize: ").append(initializeMillis().isPresent()
                ? String.format(Locale.ROOT, "%.0f ms", initializeMillis().getAsDouble()) : "no answer").append('\n');
        b.append("  ping p50: ").append(pingP50Micros().isPresent()
                ? String.format(Locale.ROOT, "%.0f us", pingP50Micros().getAsDouble()) : "no answer").append('\n');
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
        b.append(clean() ? "CLEAN: nothing but JSON-RPC on stdout, every request answered once, exit 0\n"
                : "NOT CLEAN: " + findings().size() + " finding(s)\n");
        return b.toString();
    }

    /** The report for CI, as one JSON object. */
    public String json() {
        String findings = findings().stream().map(f -> "{\"kind\":" + JsonText.string(f.kind().name()) + ",\"phase\":"
                + JsonText.string(f.phase().name()) + ",\"detail\":" + JsonText.string(f.detail()) + ",\"advice\":" + JsonText.string(f.advice()) + "}")
                .collect(Collectors.joining(","));
        return "{\"clean\":" + clean()
                + ",\"command\":[" + command().stream().map(JsonText::string).collect(Collectors.joining(",")) + "]"
                + ",\"initializeMillis\":" + (initializeMillis().isPresent() ? initializeMillis().getAsDouble() : "null")
                + ",\"pingP50Micros\":" + (pingP50Micros().isPresent() ? pingP50Micros().getAsDouble() : "null")
                + ",\"exitStatus\":" + (exitStatus().isPresent() ? exitStatus().getAsInt() : "null")
                + ",\"firstAnswerMillis\":" + (firstAnswerMillis().isPresent() ? firstAnswerMillis().getAsDouble() : "null")
                + ",\"residentBytes\":" + (residentBytes().isPresent() ? residentBytes().getAsLong() : "null")
                + ",\"stderrBytes\":" + stderrBytes()
                + ",\"stderrHead\":[" + stderrHead().stream().map(JsonText::string).collect(Collectors.joining(",")) + "]"
                + ",\"findings\":[" + findings + "]}\n";
    }
}
