package io.mcpwire.examples.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.stereotype.Component;

/**
 * The example's tools: {@code echo} answers and logs at INFO, as most tools do; {@code noisy} is
 * written the careless way, printing to {@code System.out} and leaving bytes unflushed; {@code spill}
 * floods both streams, for a host that never reads stderr.
 */
@Component
public class EchoTools {
    private static final Logger LOG = LoggerFactory.getLogger(EchoTools.class);

    @Tool(description = "Returns the text it is given.")
    public String echo(@ToolParam(description = "the text to return") String text) {
        LOG.info("echo called with {} characters", text.length());
        return text;
    }

    @Tool(description = "Prints 1 MiB to System.out, then 1 MiB to System.err, as a tool that dumps a large trace does.")
    public String spill() {
        String line = "spill: a line of stray output, 64 bytes long, 0123456789abcdef.\n";
        for (int i = 0; i < 16 * 1024; i++) {
            System.out.print(line);
        }
        System.out.flush();
        for (int i = 0; i < 16 * 1024; i++) {
            System.err.print(line);
        }
        System.err.flush();
        return "printed 1024 KiB to stdout and to stderr";
    }

    @Tool(description = "Prints to System.out, leaves bytes unflushed, logs, and returns the text it is given.")
    public String noisy(@ToolParam(description = "the text to return") String text) {
        System.out.println("noisy: System.out.println from a tool");
        System.out.print("noisy: bytes without a newline, never flushed");
        LOG.info("noisy called with {} characters", text.length());
        return text;
    }
}
