package io.mcpwire.spring;

import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
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
 * @param children         {@code end} or {@code leave}: whether the processes the application started end when it
 *                         stops serving
 * @param childrenGrace    how long they are given to end before they are ended forcibly, up to {@code 2s}
 *                         (each of the seven empty when unset: {@code McpwireSettings} gives its default)
 */
@ConfigurationProperties("mcpwire")
public record McpwireStdioProperties(@DefaultValue("true") boolean enabled, @DefaultValue("true") boolean exitAtEndOfInput,
                                     Optional<String> platform, Optional<String> isolation, Optional<String> strayOutput,
                                     Optional<String> stderr, Optional<String> hostWatch, Optional<String> children,
                                     Optional<String> childrenGrace) {

    /** Checks every setting that is parsed, so that a bad one fails the start-up, naming itself; unset, each is McpwireSettings' default. */
    public McpwireStdioProperties {
        platform = orEmpty(platform);
        isolation = orEmpty(isolation);
        strayOutput = orEmpty(strayOutput);
        stderr = orEmpty(stderr);
        hostWatch = orEmpty(hostWatch);
        children = orEmpty(children);
        childrenGrace = orEmpty(childrenGrace);
        settingsOf(platform, isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }

    private static Optional<String> orEmpty(Optional<String> setting) {
        return setting == null ? Optional.empty() : setting;
    }

    /** The settings in {@code env}, with the defaults for what it does not set. */
    public static McpwireStdioProperties of(Environment env) {
        McpwireSettings.warnOfOldNames(name -> Optional.ofNullable(env.getProperty(name)));
        return Binder.get(env).bindOrCreate("mcpwire", McpwireStdioProperties.class);
    }

    /** The claim's and the transport's settings, as these properties say. */
    public McpwireSettings settings() {
        return settingsOf(platform, isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }

    private static McpwireSettings settingsOf(Optional<String> platform, Optional<String> isolation, Optional<String> strayOutput,
                                              Optional<String> stderr, Optional<String> hostWatch, Optional<String> children,
                                              Optional<String> childrenGrace) {
        Map<String, Optional<String>> named = Map.of(McpwireSettings.PLATFORM, platform, McpwireSettings.ISOLATION, isolation,
                McpwireSettings.STRAY_OUTPUT, strayOutput, McpwireSettings.STDERR, stderr, McpwireSettings.HOST_WATCH, hostWatch,
                McpwireSettings.CHILDREN, children, McpwireSettings.CHILDREN_GRACE, childrenGrace);
        return McpwireSettings.from(named::get);
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
