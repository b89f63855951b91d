package io.mcpwire.spring;

import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Puts the standard streams back once the MCP session is over <em>and</em> the application has
 * started, or when the context closes, whichever comes first: a session can end while Spring is
 * still starting (a host that asks one thing and closes stdin), and Spring's start-up log that
 * follows must not reach the client. When the context closes first (SIGTERM: Spring's own shutdown
 * hook closes it), the session is drained first, as at end of input: the answers owed are written
 * and what the tools still print is diverted until then. Threads: the transport's closing thread
 * and Spring's event thread; the claim's own release runs once.
 */
final class ClaimRelease implements ApplicationListener<ApplicationEvent>, Runnable {
    private final StdioClaim claim;
    private volatile StdioTransport transport; // set once, before the context can close
    private boolean sessionOver; // guarded by this
    private boolean started; // guarded by this

    ClaimRelease(StdioClaim claim) {
        this.claim = claim;
    }

    /** The session over the claim, drained before the claim is put back when the context closes. */
    void drains(StdioTransport session) {
        this.transport = session;
    }

    /** The session is over (the transport has closed). */
    @Override
    public void run() {
        synchronized (this) {
            sessionOver = true;
            if (!started) {
                return;
            }
        }
        claim.close();
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ContextClosedEvent) {
            if (transport != null) {
                transport.closeWhenAnswered(); // returns at once when the session is over already
            }
            claim.close();
        } else if (event instanceof ApplicationReadyEvent) {
            synchronized (this) {
                started = true;
                if (!sessionOver) {
                    return;
                }
            }
            claim.close();
        }
    }
}
