package io.mcpwire.spring;

import io.mcpwire.stdio.StdioClaim;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Claims stdin and stdout as early as a Spring AI stdio server can be told from any other
 * application: at {@link ApplicationEnvironmentPreparedEvent}, the first event at which
 * {@code application.properties}, profiles and the command line have been read (Boot reads them in
 * the listener ordered {@code HIGHEST_PRECEDENCE + 10}), and before Boot's logging system starts
 * (the listener ordered {@code HIGHEST_PRECEDENCE + 20}) and before the banner (printed once this
 * event is over). So neither the banner nor a console log line nor a tool's print reaches the
 * client. The claim waits here until {@link McpwireStdioAutoConfiguration} hands it to the
 * transport it serves. Registered in {@code META-INF/spring.factories}.
 */
public final class EarlyStdioClaim implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {
    /** Between Boot's reading of the configuration and the start of its logging. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 15;

    /** Spring AI's MCP server auto-configuration, on both of its lines (1.1 and 2.0). */
    static final String SPRING_AI_MCP_SERVER = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration";

    private static final System.Logger LOG = System.getLogger("io.mcpwire.spring");
    private static final AtomicReference<StdioClaim> CLAIM = new AtomicReference<>();

    /** For Spring's factories loader. */
    public EarlyStdioClaim() {
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        Environment env = event.getEnvironment();
        if (!wanted(env, event.getSpringApplication().getClassLoader())) {
            return;
        }
        StdioClaim held = CLAIM.get();
        if (held != null && !held.isReleased()) {
            return; // a second application in this JVM (devtools restart, a test): the claim stands
        }
        try {
            StdioClaim claim = McpwireStdioProperties.of(env).claim();
            CLAIM.set(claim);
            LOG.log(Level.INFO, "mcpwire claimed stdin and stdout before the banner ({0})", claim);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "mcpwire could not claim the standard streams early: {0}", e.getMessage());
        }
    }

    /**
     * Whether this application is a Spring AI MCP server in stdio mode that wants mcpwire: the
     * auto-configuration's own conditions ({@link StdioServerCondition}, and Spring AI on the class path).
     */
    static boolean wanted(Environment env, ClassLoader loader) {
        return StdioServerCondition.whyNot(env).isEmpty() && ClassUtils.isPresent(SPRING_AI_MCP_SERVER, loader);
    }

    /** The early claim while it is held; empty when none was taken or it has been released. */
    static Optional<StdioClaim> take() {
        StdioClaim c = CLAIM.get();
        return c == null || c.isReleased() ? Optional.empty() : Optional.of(c);
    }
}
