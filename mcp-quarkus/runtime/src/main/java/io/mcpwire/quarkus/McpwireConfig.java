package io.mcpwire.quarkus;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * mcpwire's settings in a Quarkus application, {@code mcpwire.*}, read at run time from Quarkus'
 * configuration: {@code application.properties}, a system property ({@code -Dmcpwire.stray-output=...})
 * or an environment variable ({@code MCPWIRE_STRAY_OUTPUT}), as everywhere else
 * ({@code io.mcpwire.stdio.McpwireSettings}). Unset, each of the claim's settings is
 * {@code McpwireSettings}' default.
 */
@ConfigMapping(prefix = "mcpwire")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface McpwireConfig {

    /**
     * Whether the stdio session is served over mcpwire; {@code false}: Quarkus MCP's own stdio
     * transport serves, unprotected.
     */
    @WithDefault("true")
    boolean enabled();

    /** Whether the application exits once the session is over (the client closed stdin, or its host exited). */
    @WithDefault("true")
    boolean exitAtEndOfInput();

    /** The platform provider, by name; unset: the best that can run; {@code none}: no isolation. */
    Optional<String> platform();

    /** {@code preferred} or {@code required}: whether a claim that cannot isolate may serve in place. */
    Optional<String> isolation();

    /** Where stray output goes: {@code stderr}, {@code null}, or a file path to append to. */
    Optional<String> strayOutput();

    /** {@code guarded} or {@code direct}: whether the application's own stderr goes through the stray-output drain. */
    Optional<String> stderr();

    /** {@code ancestors}, {@code parent} or {@code off}: which processes the session ends with. */
    Optional<String> hostWatch();

    /** {@code end} or {@code leave}: whether the processes the application started end when it stops serving. */
    Optional<String> children();

    /** How long they are given to end before they are ended forcibly: {@code 500ms}, {@code 2s}, up to 2 s. */
    Optional<String> childrenGrace();
}
