package io.mcpwire.spring;

import io.mcpwire.sdkbridge.McpwireStdioServerTransportProvider;
import io.mcpwire.sdkbridge.SdkLine;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import java.lang.System.Logger.Level;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Serves a Spring AI MCP server's stdio session over mcpwire: supplies the transport provider
 * bean before Spring AI's {@code McpServerAutoConfiguration} would make its own
 * {@code StdioServerTransportProvider} (which backs off for any transport provider bean), over
 * the claim {@link EarlyStdioClaim} took before the banner. Does nothing unless Spring AI's MCP
 * server is on the class path and in stdio mode, and {@code mcpwire.enabled} is not false
 * ({@link StdioServerCondition}, in Boot's condition report with its reason); its settings are
 * {@link McpwireStdioProperties}.
 */
@AutoConfiguration(beforeName = EarlyStdioClaim.SPRING_AI_MCP_SERVER)
@ConditionalOnClass(name = {EarlyStdioClaim.SPRING_AI_MCP_SERVER, "io.modelcontextprotocol.spec.McpServerTransportProvider"})
@Conditional(StdioServerCondition.class)
@EnableConfigurationProperties(McpwireStdioProperties.class)
public class McpwireStdioAutoConfiguration {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.spring");

    /** For Spring. */
    public McpwireStdioAutoConfiguration() {
    }

    /**
     * The bridge over the early claim (or, if none was taken, a claim taken now with the same
     * settings), with the SDK's default JSON mapper for the SDK line on the class path.
     */
    @Bean
    public McpwireStdioServerTransportProvider mcpwireStdioTransportProvider(McpwireStdioProperties settings,
                                                                             ConfigurableApplicationContext context) {
        StdioClaim claim = EarlyStdioClaim.take().orElseGet(settings::claim);
        // The streams stay claimed until the session is over and the application has started: a
        // session that ends while Spring is still starting must not let its start-up log reach
        // the client. ClaimRelease puts them back then, or when the context closes.
        ClaimRelease release = new ClaimRelease(claim);
        context.addApplicationListener(release);
        LOG.log(Level.INFO, "serving the MCP stdio session over mcpwire: {0}", claim);
        // The host watch and the rest of the settings are the properties', mcpwire.* (McpwireSettings).
        StdioTransport transport = settings.configure(StdioTransport.builder().keptClaim(claim)).build();
        release.drains(transport);
        return new McpwireStdioServerTransportProvider(SdkLine.current().defaultMapper(), transport).closedThen(release);
    }

    /** Closes the application and exits once the client has closed stdin and every answer is out. */
    @Bean
    @Conditional(ExitAtEndOfInput.class)
    public SessionEnd mcpwireSessionEnd(McpwireStdioServerTransportProvider provider, ConfigurableApplicationContext context) {
        return new SessionEnd(provider, context);
    }

    /** {@code mcpwire.exit-at-end-of-input}, as {@link McpwireStdioProperties} binds it. */
    static final class ExitAtEndOfInput extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return McpwireStdioProperties.of(context.getEnvironment()).exitAtEndOfInput()
                    ? ConditionOutcome.match("mcpwire.exit-at-end-of-input is true")
                    : ConditionOutcome.noMatch("mcpwire.exit-at-end-of-input is false");
        }
    }
}
