package io.mcpwire.examples.spring;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring AI MCP server in stdio mode with Boot's defaults: the banner on, console logging on,
 * and a tool that prints to {@code System.out}. Nothing in it mentions mcpwire: the starter on
 * the class path is the whole change.
 */
@SpringBootApplication
public class SpringAiServer {

    public static void main(String[] args) {
        SpringApplication.run(SpringAiServer.class, args);
    }

    @Bean
    ToolCallbackProvider tools(EchoTools tools) {
        return MethodToolCallbackProvider.builder().toolObjects(tools).build();
    }
}
