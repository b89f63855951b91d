package io.mcpwire.spring;

import io.mcpwire.sdkbridge.McpwireStdioServerTransportProvider;
import io.mcpwire.sdkbridge.SdkLine;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.stdio.StdioTransport;
import java.lang.System.Logger.Level;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AllNestedConditions;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Serves a Spring AI MCP server's stdio session over mcpwire: supplies the transport provider
 * bean before Spring AI's {@code McpServerAutoConfiguration} would make its own
 * {@code StdioServerTransportProvider} (which backs off for any transport provider bean), over
 * the claim {@link EarlyStdioClaim} took before the banner. Does nothing unless Spring AI's MCP
 * server is on the class path and in stdio mode, and {@code mcpwire.stdio.enabled} is not false;
 * each condition shows in Boot's condition report.
 */
@AutoConfiguration(beforeName = EarlyStdioClaim.SPRING_AI_MCP_SERVER)
@ConditionalOnClass(name = {EarlyStdioClaim.SPRING_AI_MCP_SERVER, "io.modelcontextprotocol.spec.McpServerTransportProvider"})
@Conditional(McpwireStdioAutoConfiguration.StdioServer.class)
public class McpwireStdioAutoConfiguration {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.spring");

    /** For Spring. */
    public McpwireStdioAutoConfiguration() {
    }

    /**
     * The bridge over the early claim (or, if none was taken, a claim taken now), with the SDK's
     * default JSON mapper for the SDK line on the class path.
     */
    @Bean
    public McpwireStdioServerTransportProvider mcpwireStdioTransportProvider(Environment env,
                                                                             ConfigurableApplicationContext context) {
        StdioClaim claim = EarlyStdioClaim.take().orElseGet(StdioClaim::acquire);
        // The streams stay claimed until the session is over and the application has started: a
        // session that ends while Spring is still starting must not let its start-up log reach
        // the client. ClaimRelease puts them back then, or when the context closes.
        ClaimRelease release = new ClaimRelease(claim);
        context.addApplicationListener(release);
        LOG.log(Level.INFO, "serving the MCP stdio session over mcpwire: {0}", claim);
        StdioTransport.Builder transport = StdioTransport.builder().keptClaim(claim);
        // Unset, the transport's own default holds (-Dmcpwire.stdio.host-watch, else on).
        Boolean hostWatch = env.getProperty("mcpwire.stdio.host-watch", Boolean.class);
        if (hostWatch != null) {
            transport.hostWatch(hostWatch);
        }
        return new McpwireStdioServerTransportProvider(SdkLine.current().defaultMapper(), transport.build()).closedThen(release);
    }

    /** Closes the application and exits once the client has closed stdin and every answer is out. */
    @Bean
    @ConditionalOnProperty(prefix = "mcpwire.stdio", name = "exit-at-end-of-input", havingValue = "true", matchIfMissing = true)
    public SessionEnd mcpwireSessionEnd(McpwireStdioServerTransportProvider provider, ConfigurableApplicationContext context) {
        return new SessionEnd(provider, context);
    }

    /** Spring AI's MCP server enabled, in stdio mode, and mcpwire not switched off. */
    static final class StdioServer extends AllNestedConditions {
        StdioServer() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(prefix = "spring.ai.mcp.server", name = "stdio", havingValue = "true")
        static final class StdioMode {
        }

        @ConditionalOnProperty(prefix = "spring.ai.mcp.server", name = "enabled", havingValue = "true", matchIfMissing = true)
        static final class ServerEnabled {
        }

        @ConditionalOnProperty(prefix = "mcpwire.stdio", name = "enabled", havingValue = "true", matchIfMissing = true)
        static final class McpwireEnabled {
        }
    }
}
