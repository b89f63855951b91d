package io.mcpwire.examples.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.stereotype.Component;

/** The example's tool, written the careless way: it prints, leaves bytes unflushed, and logs. */
@Component
public class EchoTools {
    private static final Logger LOG = LoggerFactory.getLogger(EchoTools.class);

    @Tool(description = "Returns the text it is given.")
    public String echo(@ToolParam(description = "the text to return") String text) {
        System.out.println("echo: System.out.println from a tool");
        System.out.print("echo: bytes without a newline, never flushed");
        LOG.info("echo called with {} characters", text.length());
        return text;
    }
}
