package io.mcpwire.examples.quarkus;

import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * A Quarkus MCP server's tools, two of them misbehaving as real tools do: one prints to
 * {@code System.out}, one starts a child process with inherited stdio. On Quarkus MCP's own
 * stdio transport the print is lost and the child writes on the wire; with mcpwire-quarkus both
 * reach stderr.
 */
public class Tools {

    @Tool(description = "Returns its text.")
    String echo(@ToolArg(description = "The text to return.") String text) {
        return text;
    }

    @Tool(description = "Prints a line to System.out, then answers.")
    String print() {
        System.out.println("quarkus-server: println from a tool");
        return "printed a line to System.out";
    }

    @Tool(description = "Starts a child process with inherited stdio that writes a line to its stdout, then answers.")
    String child() throws IOException, InterruptedException {
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        List<String> command = windows
                ? List.of("cmd.exe", "/c", "echo quarkus-server: a child's stdout")
                : List.of("sh", "-c", "echo 'quarkus-server: a child'\"'\"'s stdout'");
        int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
        return "the child exited with " + exit;
    }
}
