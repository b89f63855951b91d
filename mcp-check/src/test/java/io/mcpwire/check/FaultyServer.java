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
 * with status 3, as a server that cannot start does).
 */
public final class FaultyServer {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static final Pattern METHOD = Pattern.compile("\"method\":\"([^\"]+)\"");

    private FaultyServer() {
    }

    private static void answerLater(PrintStream out, String answer) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(200); // the work a tool does
            } catch (InterruptedException e) {
                return;
            }
            synchronized (out) {
                out.println(answer);
                out.flush();
            }
        });
        t.setDaemon(true);
        t.start();
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("exits")) {
            System.err.println("faulty: cannot start");
            System.exit(3);
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        boolean bannered = false;
        String line;
        while ((line = in.readLine()) != null) {
            Matcher id = ID.matcher(line);
            Matcher method = METHOD.matcher(line);
            if (!id.find() || !method.find()) {
                continue; // a notification
            }
            String result = switch (method.group(1)) {
                case "initialize" -> "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                        + "\"serverInfo\":{\"name\":\"faulty\",\"version\":\"1\"}}";
                case "tools/list" -> "{\"tools\":[]}";
                default -> "{}";
            };
            String answer = "{\"jsonrpc\":\"2.0\",\"id\":" + id.group(1) + ",\"result\":" + result + "}";
            if (mode.equals("banner") && !bannered) {
                out.println("  .   ____          _            __ _ _");
                out.println(" :: Spring Boot ::                (v4.0.7)");
                bannered = true;
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
        // drops: main ends here and the JVM with it, whatever the daemon threads still owe
        if (mode.equals("hangs")) {
            Thread.currentThread().join(); // a non-daemon thread that never ends
        }
    }
}
