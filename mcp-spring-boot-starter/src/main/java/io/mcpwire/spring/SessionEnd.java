package io.mcpwire.spring;

import io.mcpwire.sdkbridge.McpwireStdioServerTransportProvider;
import java.lang.System.Logger.Level;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Ends the application with its session: once the transport has closed (the client closed stdin
 * and every request received was answered, the host that started the server exited, or the
 * client went away), it closes the application
 * context and exits the JVM with the context's exit code, as a stdio server's host expects of a
 * process whose session is over. Switched off with {@code mcpwire.exit-at-end-of-input=false}.
 */
public final class SessionEnd implements ApplicationListener<ApplicationReadyEvent> {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.spring");

    private final McpwireStdioServerTransportProvider provider;
    private final ConfigurableApplicationContext context;

    SessionEnd(McpwireStdioServerTransportProvider provider, ConfigurableApplicationContext context) {
        this.provider = provider;
        this.context = context;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (event.getApplicationContext() != context) {
            return;
        }
        Thread waiter = new Thread(this::exitWhenClosed, "mcpwire-session-end");
        waiter.setDaemon(false); // the session keeps the application alive, as Spring AI's own stdio transport does
        waiter.start();
    }

    private void exitWhenClosed() {
        provider.awaitClosed();
        if (!context.isActive()) {
            return; // closed by someone else, who decides how the JVM ends
        }
        LOG.log(Level.DEBUG, "the MCP session is over; closing the application");
        System.exit(SpringApplication.exit(context));
    }
}
