package io.mcpwire.check;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The command line: {@code java -jar mcpwire-check.jar [options] -- COMMAND [ARGS...]}. Exits 0
 * when the server's wire is clean and it ends well, 1 when anything is wrong, 2 when the server
 * could not be run (or the command line is wrong).
 */
public final class Check {
    private Check() {
    }

    /** Runs a check and exits with its status. */
    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a check, printing the report to {@code out}; the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("mcpwire-check: " + e.getMessage());
            err.println(Options.USAGE);
            return 2;
        }
        Report report;
        try {
            report = WireCheck.run(options);
        } catch (IOException e) {
            err.println("mcpwire-check: the server could not be started: " + e.getMessage());
            return 2;
        }
        out.print(options.json() ? json(report) : text(report));
        out.flush();
        return report.clean() ? 0 : 1;
    }

    /** The report for a person. */
    static String text(Report r) {
        StringBuilder b = new StringBuilder();
        b.append("mcpwire-check: ").append(String.join(" ", r.command())).append('\n');
        b.append("  time to initialize: ").append(r.initializeMillis().isPresent()
                ? String.format(Locale.ROOT, "%.0f ms", r.initializeMillis().getAsDouble()) : "no answer").append('\n');
        b.append("  ping p50: ").append(r.pingP50Micros().isPresent()
                ? String.format(Locale.ROOT, "%.0f us", r.pingP50Micros().getAsDouble()) : "no answer").append('\n');
        b.append("  exit after end of input: ").append(r.exitStatus().isPresent()
                ? "status " + r.exitStatus().getAsInt() : "none (killed)").append('\n');
        b.append("  stderr: ").append(r.stderrBytes()).append(" bytes");
        r.stderrHead().forEach(l -> b.append("\n    | ").append(l));
        b.append('\n');
        for (Finding f : r.findings()) {
            b.append("  ").append(f.kind()).append(" (").append(f.phase().name().toLowerCase(Locale.ROOT).replace('_', ' '))
                    .append("): ").append(f.detail()).append('\n');
            if (!f.advice().isEmpty()) {
                b.append("    likely cause: ").append(f.advice()).append('\n');
            }
        }
        b.append(r.clean() ? "CLEAN: nothing but JSON-RPC on stdout, every request answered once, exit 0\n"
                : "NOT CLEAN: " + r.findings().size() + " finding(s)\n");
        return b.toString();
    }

    /** The report for CI, as one JSON object. */
    static String json(Report r) {
        String findings = r.findings().stream().map(f -> "{\"kind\":" + str(f.kind().name()) + ",\"phase\":"
                + str(f.phase().name()) + ",\"detail\":" + str(f.detail()) + ",\"advice\":" + str(f.advice()) + "}")
                .collect(Collectors.joining(","));
        return "{\"clean\":" + r.clean()
                + ",\"command\":[" + r.command().stream().map(Check::str).collect(Collectors.joining(",")) + "]"
                + ",\"initializeMillis\":" + (r.initializeMillis().isPresent() ? r.initializeMillis().getAsDouble() : "null")
                + ",\"pingP50Micros\":" + (r.pingP50Micros().isPresent() ? r.pingP50Micros().getAsDouble() : "null")
                + ",\"exitStatus\":" + (r.exitStatus().isPresent() ? r.exitStatus().getAsInt() : "null")
                + ",\"stderrBytes\":" + r.stderrBytes()
                + ",\"stderrHead\":[" + r.stderrHead().stream().map(Check::str).collect(Collectors.joining(",")) + "]"
                + ",\"findings\":[" + findings + "]}\n";
    }

    private static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
