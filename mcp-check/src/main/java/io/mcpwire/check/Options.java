package io.mcpwire.check;

import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.ProtocolEra;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What to check and how.
 *
 * @param command         the server's command line
 * @param json            report as JSON rather than text
 * @param protocolVersion the legacy protocol version to ask for in {@code initialize}
 * @param timeout         how long to wait for each answer
 * @param calls           tools to call, by name with their arguments as JSON (never any unless asked)
 * @param era             which era to speak: told by the probe, as hosts do, or one chosen
 * @param modernVersion   the modern protocol version to name in each request's {@code _meta}
 * @param exitGrace       how much longer than an answer's timeout the server may take to end after
 *                        end of input ({@link WireCheck#EXIT_GRACE} unless told)
 */
public record Options(List<String> command, boolean json, String protocolVersion, Duration timeout, List<ToolCall> calls,
                      EraChoice era, String modernVersion, Duration exitGrace) {

    /** Options that let the probe tell the era, at the newest modern version, with the usual exit grace. */
    public Options(List<String> command, boolean json, String protocolVersion, Duration timeout, List<ToolCall> calls) {
        this(command, json, protocolVersion, timeout, calls, EraChoice.AUTO, McpProtocol.LATEST_VERSION, WireCheck.EXIT_GRACE);
    }

    /**
     * @throws IllegalArgumentException when the timeout is not positive or the exit grace is negative
     */
    public Options {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive, not " + timeout);
        }
        if (exitGrace.isNegative()) {
            throw new IllegalArgumentException("the exit grace must not be negative, not " + exitGrace);
        }
    }

    /** Which era the checker speaks. */
    public enum EraChoice {
        /** Probe with {@code server/discover} and speak the era its answer tells, as dual-era hosts do. */
        AUTO,
        /** Probe, and speak the modern era or report that no session could be opened. */
        MODERN,
        /** Send {@code initialize} at once, as a legacy host does; no probe. */
        LEGACY
    }

    /**
     * A tool to call.
     *
     * @param name      the tool's name
     * @param arguments its arguments, a JSON object
     */
    public record ToolCall(String name, String arguments) {
    }

    /** The usage line. */
    public static final String USAGE = "usage: java -jar mcpwire-check.jar [--json] [--era auto|modern|legacy] [--protocol VERSION] "
            + "[--timeout SECONDS] [--exit-grace SECONDS] [--call TOOL JSON]... -- COMMAND [ARGS...]   (--help: what each does)";

    /** What {@code --help} prints: the usage, then each option. */
    public static final String HELP = USAGE + "\n\n"
            + "Runs COMMAND as an MCP host would, over its stdin and stdout, and reports what reached the wire.\n"
            + "Exits 0 when the wire is clean and the server ends well, 1 when anything is wrong, 2 when the\n"
            + "server could not be run or the command line is wrong.\n\n"
            + "  --json               the report as JSON instead of text\n"
            + "  --era ERA            auto (probe with server/discover, as dual-era hosts do; the default),\n"
            + "                       modern, or legacy (initialize at once, no probe)\n"
            + "  --protocol VERSION   the protocol version to ask for (a legacy one for initialize, a modern\n"
            + "                       one for each request's _meta)\n"
            + "  --timeout SECONDS    how long to wait for each answer (default 10)\n"
            + "  --exit-grace SECONDS how much longer than that the server may take to end after end of\n"
            + "                       input (default 5)\n"
            + "  --call TOOL JSON     also call TOOL with these arguments (a JSON object); repeatable\n"
            + "  -h, --help           this text\n";

    /** Whether the command line asks for {@link #HELP}: {@code --help} or {@code -h} before {@code --}. */
    public static boolean wantsHelp(String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (a.equals("--help") || a.equals("-h")) {
                return true;
            }
        }
        return false;
    }

    /** The same options in {@code era}. */
    public Options withEra(EraChoice chosen) {
        return new Options(command, json, protocolVersion, timeout, calls, chosen, modernVersion, exitGrace);
    }

    /** The same options with {@code grace} for the server's end after end of input, beyond an answer's timeout. */
    public Options withExitGrace(Duration grace) {
        return new Options(command, json, protocolVersion, timeout, calls, era, modernVersion, grace);
    }

    /**
     * Reads the command line.
     *
     * @throws IllegalArgumentException with what is wrong
     */
    public static Options parse(String[] args) {
        boolean json = false;
        String legacy = "2025-06-18";
        String modern = McpProtocol.LATEST_VERSION;
        EraChoice era = EraChoice.AUTO;
        Duration timeout = Duration.ofSeconds(10);
        Duration exitGrace = WireCheck.EXIT_GRACE;
        List<ToolCall> calls = new ArrayList<>();
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            switch (args[i]) {
                case "--json" -> json = true;
                case "--era" -> era = era(value(args, ++i, "--era"));
                case "--protocol" -> {
                    String v = value(args, ++i, "--protocol");
                    if (ProtocolEra.of(v) == ProtocolEra.MODERN) {
                        modern = v;
                    } else {
                        legacy = v;
                    }
                }
                case "--timeout" -> timeout = seconds(value(args, ++i, "--timeout"), "--timeout");
                case "--exit-grace" -> exitGrace = seconds(value(args, ++i, "--exit-grace"), "--exit-grace");
                case "--call" -> {
                    String name = value(args, ++i, "--call");
                    calls.add(new ToolCall(name, value(args, ++i, "--call " + name)));
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (i >= args.length - 1) {
            throw new IllegalArgumentException("no server command after --");
        }
        return new Options(List.of(args).subList(i + 1, args.length), json, legacy, timeout, List.copyOf(calls), era, modern,
                exitGrace);
    }

    private static Duration seconds(String value, String option) {
        try {
            return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a number of seconds, not " + value);
        }
    }

    private static EraChoice era(String value) {
        try {
            return EraChoice.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--era must be auto, modern or legacy, not " + value);
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].equals("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
