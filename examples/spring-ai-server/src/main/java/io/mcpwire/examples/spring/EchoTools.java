package io.mcpwire.examples.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.stereotype.Component;

/**
 * The example's tools: {@code echo} answers and logs at INFO, as most tools do; {@code noisy} is
 * written the careless way, printing to {@code System.out} and leaving bytes unflushed.
 */
@Component
public class EchoTools {
    private static final Logger LOG = LoggerFactory.getLogger(EchoTools.class);

    @Tool(description = "Returns the text it is given.")
    public String echo(@ToolParam(description = "the text to return") String text) {
        LOG.info("echo called with {} characters", text.length());
        return text;
    }

    @Tool(description = "Prints to System.out, leaves bytes unflushed, logs, and returns the text it is given.")
    public String noisy(@ToolParam(description = "the text to return") String text) {
        System.out.println("noisy: System.out.println from a tool");
        System.out.print("noisy: bytes without a newline, never flushed");
        LOG.info("noisy called with {} characters", text.length());
        return text;
    }
}
