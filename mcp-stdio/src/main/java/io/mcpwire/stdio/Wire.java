package io.mcpwire.stdio;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Where a transport's bytes come from and go, and how it ends them: one implementation per mode,
 * so that no mode is spelled as a missing value. A claim's wire ({@link StdioClaim#wire()}) is the
 * claimed descriptors, or the standard streams served in place when nothing can isolate them; a
 * transport may add its own, such as streams its caller passed in. The wire alone counts the calls
 * in flight on it; its streams only wake and free.
 */
public interface Wire {

    /** What the client sends. Unbuffered. */
    InputStream input();

    /** What reaches the client. */
    OutputStream output();

    /** Why the output cannot carry answers (the parent gave no stdout), or empty when it can. */
    default Optional<String> outputAbsence() {
        return Optional.empty();
    }

    /** Whether the output may buffer, so that each write must be flushed to reach the client. */
    default boolean outputBuffered() {
        return false;
    }

    /**
     * Makes every later read and write fail and unblocks the pending ones, without waiting.
     *
     * @return whether a thread blocked on the wire leaves now, so that it is worth waiting for;
     *         false when nothing can wake it (it is a daemon, and is left behind)
     */
    boolean wake();

    /**
     * Ends the wire: wakes what is still blocked, waits for it to leave, and gives the standard
     * streams back. Never throws; idempotent, and retried by calling again when a restore failed.
     */
    void release();
}
