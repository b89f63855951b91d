package io.mcpwire.platform;

/**
 * The duties of a provider whose JVM keeps standard handles of its own, apart from the descriptors
 * (Windows: {@code FileDescriptor.in/out/err} hold the OS handles captured at start-up, and a child
 * inherits the OS's standard-handle slots, not the C runtime's table). A provider offers them
 * through {@link PlatformDescriptors#standardHandleDuties()}; one whose JVM streams are the
 * descriptors themselves (POSIX) offers none, and the engine asks nothing of this kind of it.
 *
 * <p>The engine runs every move of a standard descriptor (diverting it, rolling it back or forward,
 * restoring it) through {@link #moveStandard}, and within that step, after the move, calls the
 * three duties in this order:
 * <ol>
 * <li>{@link #rebindStandardHandle}: the OS's standard-handle slot names the descriptor's file;</li>
 * <li>{@link #followStartupHandle}: the handle value the JVM captured at start-up for the
 *     descriptor ({@code FileDescriptor.out}'s, which an {@code inheritIO()} child gets) names it
 *     too;</li>
 * <li>{@link #cancelStrandedReads} (fd 0 only): once fd 0 has left the wire, a read another thread
 *     still has pending on the wire (a {@code System.in} read since before the claim) is cancelled,
 *     so that it cannot take the client's bytes. The engine names the private duplicate that holds
 *     the wire: a provider never infers it from the order of calls.</li>
 * </ol>
 * The provider kit ({@code mcpwire-platform-test-kit}) checks each duty and names the one a
 * provider skipped. Implementations must be thread-safe, as the provider itself.
 */
public interface StandardHandleDuties {

    /**
     * Points the OS's standard-handle slot for {@code fd} (0, 1 or 2) at {@code fd}'s current open
     * file, and nothing else ({@code SetStdHandle} on Windows).
     *
     * @throws DescriptorException on failure; the slot is unchanged
     */
    void rebindStandardHandle(int fd) throws DescriptorException;

    /**
     * Makes the handle value the JVM captured at start-up for {@code fd} (0, 1 or 2) name
     * {@code fd}'s current open file, so that {@code FileDescriptor.in/out/err}, and an
     * {@code inheritIO()} child, reach what fd reaches. Best effort: a value that cannot be made to
     * follow is logged, naming fd, the value and the call, and is tried again at the next move.
     */
    void followStartupHandle(int fd);

    /**
     * {@code fd} (0) has moved; when it no longer names the file {@code privateFd} holds (the wire),
     * cancels any read another thread still has pending on that file through another handle, so
     * that it cannot take the client's bytes; read again, that thread finds what fd names now. Best
     * effort, logged.
     */
    void cancelStrandedReads(int fd, int privateFd);

    /** The calls of one move of a standard descriptor, for {@link #moveStandard}. */
    @FunctionalInterface
    interface StandardMove {
        /** Moves the descriptor and does the duties after it. */
        void run() throws DescriptorException;
    }

    /**
     * Runs {@code move}: the calls that move standard descriptor {@code fd}
     * ({@link PlatformDescriptors#duplicateOnto} onto it, the close of what it copied, and the
     * duties after it), as one step that the provider may make exclusive of what else the process
     * does. On Windows no Java child starts meanwhile, the step stays on one processor, so that the
     * handle value the move frees comes back to the duties' take-back, and a step that waits (for a
     * lock a native thread holds while it blocks) is given up after a bounded wait. The default runs
     * it on the calling thread. A provider must run {@code move} or throw: the engine takes a
     * return without a run as a failed move, and never counts fd as moved.
     *
     * @throws DescriptorException what {@code move} threw; or the step could not be made, or did
     *                             not end within the wait, so that whether fd moved is not known
     */
    default void moveStandard(int fd, StandardMove move) throws DescriptorException {
        move.run();
    }
}
