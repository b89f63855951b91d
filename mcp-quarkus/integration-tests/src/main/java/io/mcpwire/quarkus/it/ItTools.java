package io.mcpwire.quarkus.it;

import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * The tools of the test application: one that echoes, ones that misbehave as real tools do (a
 * print, an {@code inheritIO()} child, a read of {@code System.in}), and one that takes its time.
 */
public class ItTools {

    @Tool(description = "Returns its text.")
    String echo(@ToolArg(description = "The text to return.") String text) {
        return text;
    }

    @Tool(description = "Prints to System.out, starts a child with inherited stdio that writes to its stdout and reads "
            + "its stdin, and reads System.in; says what the child and System.in gave.")
    String noisy() throws IOException, InterruptedException {
        System.out.println("quarkus-it: println from a tool");
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        List<String> child = windows
                ? List.of("cmd.exe", "/c", "echo quarkus-it: child stdout& sort")
                : List.of("sh", "-c", "echo quarkus-it: child stdout; cat");
        int exit = new ProcessBuilder(child).inheritIO().start().waitFor();
        int read = System.in.read();
        return "child exit code " + exit + "; System.in gave " + (read < 0 ? "end of input" : "byte " + read);
    }

    @Tool(description = "Answers after the given number of milliseconds.")
    String slow(@ToolArg(description = "How long to take, in milliseconds.") int millis) throws InterruptedException {
        Thread.sleep(millis);
        return "slept " + millis + " ms";
    }
}
