package io.mcpwire.platform;

import java.util.OptionalLong;

/**
 * Waits, without polling, for other processes to exit: what a provider offers where the operating
 * system can block on a process' end ({@link PlatformDescriptors#processExits()}): on Linux 5.3
 * and newer a {@code pidfd} of each process, polled with a self-pipe; on Windows a
 * {@code SYNCHRONIZE} handle of each process and an event, in one {@code WaitForMultipleObjects}.
 * The session's host watch waits here when it can and polls the processes four times a second
 * otherwise, so that an idle server wakes for nothing. Implementations must be thread-safe, as the provider itself.
 */
public interface ProcessExits {

    /**
     * Opens a wait on the processes {@code pids}, as they are now: one that has already exited, or
     * whose id has since been reused, is the caller's to rule out (the JDK's {@code ProcessHandle}
     * compares start times) once this returns.
     *
     * @throws DescriptorException when the system refuses the wait (a kernel too old, a sandbox
     *                             that forbids the call), naming the call and the error; nothing
     *                             is left open, and the caller polls instead
     */
    Wait watch(long... pids) throws DescriptorException;

    /** One open wait: its descriptors live until {@link #close()}. */
    interface Wait extends AutoCloseable {

        /**
         * Blocks until one of the processes has exited, or the wait is woken.
         *
         * @return the id of a process that exited; empty once {@link #wake()} was called
         * @throws DescriptorException when the wait itself fails, naming the call and the error
         */
        OptionalLong await() throws DescriptorException;

        /**
         * Makes a pending {@link #await()}, and every later one, return empty at once. Any thread;
         * after {@link #close()} it does nothing.
         */
        void wake();

        /** Closes the wait's descriptors; idempotent. Not while another thread is in {@link #await()}. */
        @Override
        void close();
    }
}
