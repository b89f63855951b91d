package io.mcpwire.spring;

import io.mcpwire.stdio.StderrPolicy;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import io.mcpwire.stdio.StrayOutput;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.Environment;

/**
 * The starter's settings, {@code mcpwire.stdio.*}, bound once from the environment by Boot's
 * binder: by {@link EarlyStdioClaim} before the banner (no bean exists yet then) and as a bean for
 * {@link McpwireStdioAutoConfiguration}. Every claim the starter takes, early or late, is taken
 * through {@link #claim()}, so each honours them all.
 *
 * @param enabled          whether a Spring AI MCP server in stdio mode is served over mcpwire
 * @param exitAtEndOfInput whether the application closes and exits once the session is over
 * @param hostWatch        whether the session ends when the host exits; empty: the transport's default
 * @param strayOutput      where stray output goes: {@code stderr}, {@code null}, or a file path
 * @param stderr           {@code guarded} or {@code direct}: whether the application's own stderr goes
 *                         through the stray-output drain
 */
@ConfigurationProperties("mcpwire.stdio")
public record McpwireStdioProperties(@DefaultValue("true") boolean enabled, @DefaultValue("true") boolean exitAtEndOfInput,
                                     Optional<Boolean> hostWatch, @DefaultValue("stderr") String strayOutput,
                                     @DefaultValue("guarded") String stderr) {

    /** Checks the two settings that are parsed, so that a bad one fails the start-up, naming itself. */
    public McpwireStdioProperties {
        hostWatch = hostWatch == null ? Optional.empty() : hostWatch;
        StrayOutput.parse(strayOutput);
        StderrPolicy.parse(stderr);
    }

    /** The settings in {@code env}, with the defaults above for what it does not set. */
    public static McpwireStdioProperties of(Environment env) {
        return Binder.get(env).bindOrCreate("mcpwire.stdio", McpwireStdioProperties.class);
    }

    /** Claims the standard streams as these settings say. */
    public StdioClaim claim() {
        return StdioClaim.builder().strayOutput(StrayOutput.parse(strayOutput)).stderr(StderrPolicy.parse(stderr)).acquire();
    }

    /** Applies the transport's settings to {@code transport}. */
    public StdioTransport.Builder configure(StdioTransport.Builder transport) {
        hostWatch.ifPresent(transport::hostWatch);
        return transport;
    }
}
