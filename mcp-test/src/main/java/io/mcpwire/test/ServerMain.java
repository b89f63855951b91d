package io.mcpwire.test;

/**
 * What starts a server inside the test JVM: its {@code main} ({@code () -> MyServer.main(new
 * String[0])}) or any transport set-up. It may serve and return when the session ends, or build
 * the server and return at once, leaving the session to its own threads. It must not call
 * {@code System.exit}, which would end the test JVM: split that out of {@code main}, or test the
 * server in a child JVM ({@link McpServerExtension#module}).
 */
@FunctionalInterface
public interface ServerMain {

    /** Starts (or runs) the server. */
    void run() throws Exception;
}
