package io.mcpwire.spring;

import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.Environment;

/**
 * The starter's settings, {@code mcpwire.*}, bound once from the environment by Boot's binder: by
 * {@link EarlyStdioClaim} before the banner (no bean exists yet then) and as a bean for
 * {@link McpwireStdioAutoConfiguration}. The claim's and the transport's settings have the names
 * they have everywhere ({@link McpwireSettings}): a system property {@code -Dmcpwire.stray-output}
 * or an environment variable {@code MCPWIRE_STRAY_OUTPUT} sets them here too. Every claim the
 * starter takes, early or late, and its transport, are made with {@link #settings()}.
 *
 * @param enabled          whether a Spring AI MCP server in stdio mode is served over mcpwire
 * @param exitAtEndOfInput whether the application closes and exits once the session is over
 * @param platform         the platform provider, by name; empty: the best that can run; {@code none}: no isolation
 * @param isolation        {@code preferred} or {@code required}: whether a claim that cannot isolate may serve in place
 * @param strayOutput      where stray output goes: {@code stderr}, {@code null}, or a file path
 * @param stderr           {@code guarded} or {@code direct}: whether the application's own stderr goes
 *                         through the stray-output drain
 * @param hostWatch        {@code ancestors}, {@code parent} or {@code off}: which processes the session ends with
 */
@ConfigurationProperties("mcpwire")
public record McpwireStdioProperties(@DefaultValue("true") boolean enabled, @DefaultValue("true") boolean exitAtEndOfInput,
                                     Optional<String> platform, @DefaultValue("preferred") String isolation,
                                     @DefaultValue("stderr") String strayOutput, @DefaultValue("guarded") String stderr,
                                     @DefaultValue("ancestors") String hostWatch) {

    /** Checks every setting that is parsed, so that a bad one fails the start-up, naming itself. */
    public McpwireStdioProperties {
        platform = platform == null ? Optional.empty() : platform;
        settingsOf(platform, isolation, strayOutput, stderr, hostWatch);
    }

    /** The settings in {@code env}, with the defaults above for what it does not set. */
    public static McpwireStdioProperties of(Environment env) {
        return Binder.get(env).bindOrCreate("mcpwire", McpwireStdioProperties.class);
    }

    /** The claim's and the transport's settings, as these properties say. */
    public McpwireSettings settings() {
        return settingsOf(platform, isolation, strayOutput, stderr, hostWatch);
    }

    private static McpwireSettings settingsOf(Optional<String> platform, String isolation, String strayOutput, String stderr,
                                              String hostWatch) {
        Map<String, String> named = new HashMap<>();
        platform.ifPresent(p -> named.put(McpwireSettings.PLATFORM, p));
        named.put(McpwireSettings.ISOLATION, isolation);
        named.put(McpwireSettings.STRAY_OUTPUT, strayOutput);
        named.put(McpwireSettings.STDERR, stderr);
        named.put(McpwireSettings.HOST_WATCH, hostWatch);
        return McpwireSettings.from(name -> Optional.ofNullable(named.get(name)));
    }

    /** Claims the standard streams as these settings say. */
    public StdioClaim claim() {
        return StdioClaim.builder().settings(settings()).acquire();
    }

    /** Applies the transport's settings to {@code transport}. */
    public StdioTransport.Builder configure(StdioTransport.Builder transport) {
        return transport.settings(settings());
    }
}
