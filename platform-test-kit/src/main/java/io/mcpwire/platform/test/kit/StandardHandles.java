package io.mcpwire.platform.test.kit;

import java.util.concurrent.CompletableFuture;

/**
 * What {@link ProviderContract} sees of a table's standard descriptors, to check the duties of a
 * provider that offers {@link io.mcpwire.platform.StandardHandleDuties} (Windows). Only a table of
 * its own, such as the fake's model, can have fd 0, 1 and 2 moved inside a test JVM: a provider of
 * the real process leaves {@link ProviderContract#standardHandles()} empty, and its duties are
 * checked in child JVMs ({@link ClaimScenarios}).
 */
public interface StandardHandles {
    /** What standard descriptor {@code fd} names now, in words that compare equal for the same file. */
    String descriptor(int fd);

    /** What the OS's standard-handle slot for {@code fd} names now, in the same words. */
    String slot(int fd);

    /** What the handle value the JVM captured at start-up for {@code fd} names now, in the same words. */
    String startupValue(int fd);

    /**
     * Starts a thread that reads the JVM's standard input through its start-up handle value (as
     * {@code System.in} does) and returns once it is blocked in that read.
     *
     * @return completes when the read returns, by data, end of input or an error
     */
    CompletableFuture<Object> blockedStartupRead();

    /** Puts the JVM's streams back, when {@link #blockedStartupRead()} changed them. */
    void close();
}
