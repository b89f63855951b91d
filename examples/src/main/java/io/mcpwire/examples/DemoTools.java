package io.mcpwire.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The demo server's tools: {@code echo}, {@code noisy} and {@code spill} (which misbehave on
 * purpose) and {@code payload}.
 */
public final class DemoTools {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** The largest payload the tool makes, in KiB (16 MiB is the transport's message limit). */
    static final int MAX_PAYLOAD_KIB = 15 * 1024;

    private DemoTools() {
    }

    /** All four tools. */
    public static List<Tool> all() {
        return List.of(new Echo(), new Noisy(), new Payload(), new Spill());
    }

    /** The {@code kib} argument of {@code payload} and {@code spill}: a whole number from 0 to {@link #MAX_PAYLOAD_KIB}. */
    private static int kib(JsonNode arguments) {
        JsonNode kib = arguments.get("kib");
        if (kib == null || !kib.isIntegralNumber() || kib.longValue() < 0 || kib.longValue() > MAX_PAYLOAD_KIB) {
            throw new IllegalArgumentException("\"kib\" must be an integer from 0 to " + MAX_PAYLOAD_KIB);
        }
        return kib.intValue();
    }

    private static ObjectNode schema(String property, String type, String description) {
        ObjectNode s = JSON.objectNode().put("type", "object");
        if (property != null) {
            s.putObject("properties").putObject(property).put("type", type).put("description", description);
            s.putArray("required").add(property);
        } else {
            s.putObject("properties");
        }
        return s;
    }

    /** Returns its text. */
    static final class Echo implements Tool {
        @Override public String name() { return "echo"; }
        @Override public String description() { return "Returns the text it is given."; }
        @Override public ObjectNode inputSchema() { return schema("text", "string", "The text to echo."); }

        @Override
        public String call(JsonNode arguments) {
            JsonNode text = arguments.get("text");
            if (text == null || !text.isString()) {
                throw new IllegalArgumentException("\"text\" must be a string");
            }
            return text.stringValue();
        }
    }

    /**
     * Misbehaves the way real tools do: prints to {@code System.out}, leaves bytes unflushed in
     * it, starts a child with inherited stdio that writes to its stdout and reads its stdin, and
     * reads {@code System.in}. With the claim, none of it touches the wire.
     */
    static final class Noisy implements Tool {
        @Override public String name() { return "noisy"; }
        @Override public String description() {
            return "Prints to stdout, starts a child process with inherited stdio, and reads stdin: "
                    + "shows that none of it reaches the protocol stream.";
        }
        @Override public ObjectNode inputSchema() { return schema(null, null, null); }

        @Override
        public String call(JsonNode arguments) throws IOException, InterruptedException {
            System.out.println("noisy: System.out.println from a tool");
            for (byte b : "noisy: System.out.write without newline or flush".getBytes(StandardCharsets.UTF_8)) {
                System.out.write(b);
            }
            boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
            // The child inherits all three streams: it writes to stdout and reads stdin, as a child would.
            List<String> child = windows
                    ? List.of("cmd.exe", "/c", "echo noisy: child stdout& sort")
                    : List.of("sh", "-c", "echo noisy: child stdout; cat");
            int exit = new ProcessBuilder(child).inheritIO().start().waitFor();
            int read = System.in.read();
            return "child exit code " + exit + "; System.in gave " + (read < 0 ? "end of input" : "byte " + read);
        }
    }

    /** Returns {@code kib} KiB of text. */
    static final class Payload implements Tool {
        @Override public String name() { return "payload"; }
        @Override public String description() { return "Returns the given number of KiB of text."; }
        @Override public ObjectNode inputSchema() { return schema("kib", "integer", "How many KiB of text to return."); }

        @Override
        public String call(JsonNode arguments) {
            int n = kib(arguments) * 1024;
            StringBuilder text = new StringBuilder(n);
            String line = "mcpwire payload line: 0123456789abcdefghijklmnopqrstuvwxyz\n"; // 64 bytes
            while (text.length() + line.length() <= n) {
                text.append(line);
            }
            while (text.length() < n) {
                text.append('.');
            }
            return text.toString();
        }
    }

    /**
     * Prints {@code kib} KiB to {@code System.out}, then as much to {@code System.err}, as a tool
     * that dumps a large trace does; with a host that never reads stderr, only the claim's drain
     * keeps it from blocking.
     */
    static final class Spill implements Tool {
        @Override public String name() { return "spill"; }
        @Override public String description() { return "Prints the given number of KiB to stdout, then to stderr."; }
        @Override public ObjectNode inputSchema() { return schema("kib", "integer", "How many KiB to print to each stream."); }

        @Override
        public String call(JsonNode arguments) {
            int kib = kib(arguments);
            String line = "spill: a line of stray output, 64 bytes long, 0123456789abcdef.\n";
            for (int i = 0; i < kib * 16; i++) {
                System.out.print(line);
            }
            System.out.flush();
            for (int i = 0; i < kib * 16; i++) {
                System.err.print(line);
            }
            System.err.flush();
            return "printed " + kib + " KiB to stdout and to stderr";
        }
    }
}
