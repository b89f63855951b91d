package io.mcpwire.quarkus;

import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import io.quarkiverse.mcp.server.stdio.runtime.StdioMcpServerRecorder;
import io.quarkiverse.mcp.server.stdio.runtime.config.McpStdioRuntimeConfig;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.ShutdownContext;
import io.quarkus.runtime.annotations.Recorder;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;

/**
 * What the extension does when the application starts: claims the standard streams before Quarkus
 * starts its logging ({@link #claimBeforeLogging}), then serves the stdio session over mcpwire once
 * the beans are ready ({@link #serve}). Where mcpwire does not serve (it is turned off, Quarkus
 * MCP's stdio transport is, or the application runs in dev or test mode) Quarkus MCP's own stdio
 * transport starts, as it would without this extension.
 */
@Recorder
public class McpwireRecorder {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.quarkus");

    private final RuntimeValue<McpwireConfig> config;
    private final RuntimeValue<McpStdioRuntimeConfig> stdioConfig;

    /** For Quarkus: the run-time configuration of mcpwire and of Quarkus MCP's stdio transport. */
    public McpwireRecorder(RuntimeValue<McpwireConfig> config, RuntimeValue<McpStdioRuntimeConfig> stdioConfig) {
        this.config = config;
        this.stdioConfig = stdioConfig;
    }

    /**
     * Claims the standard streams, where mcpwire serves. Returns no log handler: the value only
     * orders this step before Quarkus' logging set-up, which consumes every handler, so that the
     * banner and the start-up log (even on a console sent to stdout) never reach the wire.
     *
     * @throws IllegalArgumentException when a setting has a value it does not take, naming it
     */
    public RuntimeValue<Optional<Handler>> claimBeforeLogging() {
        if (serves()) {
            EarlyClaim.claim(settings(config.getValue()));
        }
        return new RuntimeValue<>(Optional.empty());
    }

    /**
     * Serves the stdio session over the claim, or starts Quarkus MCP's own stdio transport where
     * mcpwire does not serve. At shutdown, every request already received is answered before the
     * beans go; the streams are put back when the JVM exits.
     */
    public void serve(ShutdownContext shutdown) {
        if (!serves()) {
            new StdioMcpServerRecorder(stdioConfig).initialize();
            return;
        }
        McpwireSettings settings = settings(config.getValue());
        StdioClaim claim = EarlyClaim.take().orElseGet(() -> StdioClaim.builder().settings(settings).acquire());
        LOG.log(Level.INFO, "serving the MCP stdio session over mcpwire: {0}", claim);
        StdioTransport transport = StdioTransport.builder().keptClaim(claim).settings(settings).build();
        QuarkusStdioSession session = new QuarkusStdioSession(transport,
                Arc.container().instance(McpwireMessageHandler.class).get(), config.getValue().exitAtEndOfInput());
        // The answers owed are written while the beans that make them still exist.
        shutdown.addShutdownTask(session::closeWhenAnswered);
        // The streams stay claimed as long as the JVM runs: Quarkus logs its stop after its last
        // shutdown task, and the host reads stdout until the process is gone.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            session.closeWhenAnswered();
            claim.close();
        }, "mcpwire-quarkus-release"));
        session.start();
    }

    private boolean serves() {
        return config.getValue().enabled() && stdioConfig.getValue().enabled() && LaunchMode.current() == LaunchMode.NORMAL;
    }

    /** The claim's and the transport's settings, as Quarkus' configuration has them. */
    static McpwireSettings settings(McpwireConfig config) {
        Map<String, Optional<String>> named = Map.of(McpwireSettings.PLATFORM, config.platform(),
                McpwireSettings.ISOLATION, config.isolation(), McpwireSettings.STRAY_OUTPUT, config.strayOutput(),
                McpwireSettings.STDERR, config.stderr(), McpwireSettings.HOST_WATCH, config.hostWatch(),
                McpwireSettings.CHILDREN, config.children(), McpwireSettings.CHILDREN_GRACE, config.childrenGrace());
        return McpwireSettings.from(named::get);
    }
}
