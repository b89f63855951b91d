package io.mcpwire.spring;

import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether this application is a Spring AI MCP server in stdio mode that mcpwire serves: Spring AI's
 * MCP server enabled ({@code spring.ai.mcp.server.enabled}, default true), in stdio mode
 * ({@code spring.ai.mcp.server.stdio=true}), and {@code mcpwire.enabled} not false. The one
 * test, for the auto-configuration (where it shows in Boot's condition report) and for the early
 * claim alike.
 */
final class StdioServerCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return whyNot(context.getEnvironment())
                .map(ConditionOutcome::noMatch)
                .orElseGet(() -> ConditionOutcome.match("a Spring AI MCP server in stdio mode, served over mcpwire"));
    }

    /** Why mcpwire does not serve this application; empty when it does. */
    static Optional<String> whyNot(Environment env) {
        if (!env.getProperty("spring.ai.mcp.server.enabled", Boolean.class, true)) {
            return Optional.of("spring.ai.mcp.server.enabled is false");
        }
        if (!env.getProperty("spring.ai.mcp.server.stdio", Boolean.class, false)) {
            return Optional.of("spring.ai.mcp.server.stdio is not true");
        }
        if (!McpwireStdioProperties.of(env).enabled()) {
            return Optional.of("mcpwire.enabled is false");
        }
        return Optional.empty();
    }
}
