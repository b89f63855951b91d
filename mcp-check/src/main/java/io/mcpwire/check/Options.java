package io.mcpwire.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What to check and how.
 *
 * @param command         the server's command line
 * @param json            report as JSON rather than text
 * @param protocolVersion the MCP protocol version to ask for in {@code initialize}
 * @param timeout         how long to wait for each answer, and for the exit after end of input
 * @param calls           tools to call, by name with their arguments as JSON (never any unless asked)
 */
public record Options(List<String> command, boolean json, String protocolVersion, Duration timeout, List<ToolCall> calls) {

    /**
     * A tool to call.
     *
     * @param name      the tool's name
     * @param arguments its arguments, a JSON object
     */
    public record ToolCall(String name, String arguments) {
    }

    /** The usage line. */
    public static final String USAGE = "usage: java -jar mcpwire-check.jar [--json] [--protocol VERSION] [--timeout SECONDS] "
            + "[--call TOOL JSON]... -- COMMAND [ARGS...]";

    /**
     * Reads the command line.
     *
     * @throws IllegalArgumentException with what is wrong
     */
    public static Options parse(String[] args) {
        boolean json = false;
        String protocol = "2025-06-18";
        Duration timeout = Duration.ofSeconds(10);
        List<ToolCall> calls = new ArrayList<>();
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            switch (args[i]) {
                case "--json" -> json = true;
                case "--protocol" -> protocol = value(args, ++i, "--protocol");
                case "--timeout" -> timeout = Duration.ofMillis((long) (Double.parseDouble(value(args, ++i, "--timeout")) * 1000));
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
        return new Options(List.of(args).subList(i + 1, args.length), json, protocol, timeout, List.copyOf(calls));
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].equals("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
