package io.mcpwire.check;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tiny MCP stdio server for the checker's tests, clean or with one fault of the kind real
 * servers have: {@code clean}, {@code banner} (a banner before the first answer), {@code glued}
 * (a print without a newline before each answer), {@code drops} (pings are answered a little
 * later by a daemon thread, and the process ends at end of input without waiting for them, as
 * servers that hand work to a pool do), {@code hangs} (never exits), {@code exits} (exits at once
 * with status 3, as a server that cannot start does), {@code silent} and {@code loses-pings}.
 * They are legacy servers, answering {@code server/discover} with -32601 as one does, except:
 * {@code modern} (modern only: answers the probe with a DiscoverResult, refuses {@code initialize}
 * with -32601), {@code no-result-type} (modern, but its tools/list result lacks resultType and
 * cache hints), {@code future} (modern, speaks only a version the checker does not),
 * {@code ignores-probe} (never answers the probe), {@code dies-on-probe} (exits on it) and
 * {@code mute-after-probe} (refuses the probe, then answers nothing), {@code slow-modern}
 * (modern, but answers the probe only once the next request has come, that is after the client
 * stopped waiting for it, as a server too slow to start does, and refuses {@code initialize} with
 * -32022), {@code asks} (modern, but writes a sampling request before its tools/list answer),
 * {@code logs} (modern, but writes {@code notifications/message} unasked), {@code asks-legacy}
 * (legacy, writing the same request, which that era allows) and {@code leaves} (legacy, clean,
 * but leaves a {@code sleep 600} it started running when it exits).
 */
public final class FaultyServer {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static final Pattern METHOD = Pattern.compile("\"method\":\"([^\"]+)\"");

    private FaultyServer() {
    }

    /** Drops: whether main has read end of input; guarded by the output stream's monitor. */
    private static boolean endOfInput;

    /**
     * Drops: the answer goes out once the tool's work is done, unless end of input came first; so
     * what is owed then is dropped however long the JVM takes to exit.
     */
    private static void answerLater(PrintStream out, String answer) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(200); // the work a tool does: the fault modelled, not a wait for another thread
            } catch (InterruptedException e) {
                return;
            }
            synchronized (out) {
                if (!endOfInput) {
                    out.println(answer);
                    out.flush();
                }
            }
        });
        t.setDaemon(true);
        t.start();
    }

    private static final String NOT_FOUND = "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}";

    private static String legacy(String method) {
        return switch (method) {
            case "initialize" -> "\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                    + "\"serverInfo\":{\"name\":\"faulty\",\"version\":\"1\"}}";
            case "tools/list" -> "\"result\":{\"tools\":[]}";
            case "server/discover" -> NOT_FOUND;
            default -> "\"result\":{}";
        };
    }

    private static String modern(String mode, String method) {
        String cache = mode.equals("no-result-type") ? "" : ",\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"public\"";
        if (mode.equals("future")) {
            return "\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\","
                    + "\"data\":{\"supported\":[\"2099-01-01\"],\"requested\":\"2026-07-28\"}}";
        }
        return switch (method) {
            case "server/discover" -> "\"result\":{\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"],"
                    + "\"capabilities\":{\"tools\":{}},\"ttlMs\":0,\"cacheScope\":\"public\"}";
            case "tools/list" -> "\"result\":{\"tools\":[]" + cache + "}";
            case "initialize" -> mode.equals("slow-modern") ? "\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\","
                    + "\"data\":{\"supported\":[\"2026-07-28\"],\"requested\":\"2025-06-18\"}}" : NOT_FOUND;
            case "ping" -> NOT_FOUND;
            default -> "\"result\":{\"resultType\":\"complete\"}";
        };
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("exits")) {
            System.err.println("faulty: cannot start");
            System.exit(3);
        }
        if (mode.equals("leaves")) {
            new ProcessBuilder("sleep", "600").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        boolean bannered = false;
        boolean muted = false;
        boolean slowStartOver = false;
        String held = null; // slow-modern: the probe's answer, written once the next request shows the wait is over
        String line;
        while ((line = in.readLine()) != null) {
            Matcher id = ID.matcher(line);
            Matcher method = METHOD.matcher(line);
            if (!id.find() || !method.find()) {
                continue; // a notification
            }
            boolean probe = method.group(1).equals("server/discover");
            boolean modern = mode.equals("modern") || mode.equals("slow-modern") || mode.equals("no-result-type") || mode.equals("future")
                    || mode.equals("asks") || mode.equals("logs");
            if (probe && mode.equals("dies-on-probe")) {
                System.exit(0);
            }
            if (probe && mode.equals("ignores-probe") || muted) {
                continue;
            }
            muted = probe && mode.equals("mute-after-probe");
            String answer = "{\"jsonrpc\":\"2.0\",\"id\":" + id.group(1) + ","
                    + (modern ? modern(mode, method.group(1)) : legacy(method.group(1))) + "}";
            if (mode.equals("slow-modern") && probe && !slowStartOver) {
                slowStartOver = true;
                held = answer; // answered only after the client stopped waiting for it, as a slow start does
                continue;
            }
            if (held != null) {
                out.println(held);
                held = null;
            }
            if (mode.equals("banner") && !bannered) {
                out.println("  .   ____          _            __ _ _");
                out.println(" :: Spring Boot ::                (v4.0.7)");
                bannered = true;
            }
            if ((mode.equals("asks") || mode.equals("asks-legacy")) && method.group(1).equals("tools/list")) {
                out.println("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"sampling/createMessage\",\"params\":"
                        + "{\"messages\":[],\"maxTokens\":1}}");
            }
            if (mode.equals("logs") && method.group(1).equals("tools/list")) {
                out.println("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"listing\"}}");
            }
            if (mode.equals("glued") && !method.group(1).equals("initialize")) {
                out.print("progress: 50%");
            }
            if (mode.equals("silent") || (mode.equals("loses-pings") && method.group(1).equals("ping"))) {
                continue; // never answered
            }
            if (mode.equals("drops") && method.group(1).equals("ping")) {
                answerLater(out, answer);
                continue;
            }
            synchronized (out) {
                out.println(answer);
                out.flush();
            }
        }
        synchronized (out) {
            endOfInput = true; // drops: what the daemon threads still owe is never written
        }
        if (mode.equals("hangs")) {
            Thread.currentThread().join(); // a non-daemon thread that never ends
        }
    }
}
