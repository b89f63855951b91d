package io.mcpwire.stdio.engine;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.ClaimState;
import java.lang.System.Logger.Level;

/**
 * The claim of one standard descriptor (0 or 1): the state machine of the contract's rules 3 to
 * 9. Registration (rule 1) is the caller's, before {@link #engage()} and after a successful
 * {@link #release}. Not thread-safe: its owner serializes calls.
 */
public final class StreamClaim {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.stdio");

    private final PlatformDescriptors platform;
    private final int fd;
    // Volatile: other threads read them for messages (a refused claim names its holder's state).
    private volatile ClaimState state;
    /** The private duplicate P; once recorded, never closed until the restore has succeeded. */
    private volatile int privateFd = -1;

    /** A claim of {@code fd} through {@code platform}; a null platform serves in place. */
    public StreamClaim(PlatformDescriptors platform, int fd) {
        if (fd != PlatformDescriptors.STDIN && fd != PlatformDescriptors.STDOUT) {
            throw new IllegalArgumentException("only fd 0 and fd 1 are claimed, not " + fd);
        }
        this.platform = platform;
        this.fd = fd;
    }

    /** The claimed descriptor. */
    public int fd() {
        return fd;
    }

    /** The current state; null before {@link #engage()}. */
    public ClaimState state() {
        return state;
    }

    /** The descriptor that carries the wire now: P when diverted or rolled forward, else fd. */
    public int servingDescriptor() {
        return state == ClaimState.IN_PLACE || state == ClaimState.RELEASED ? fd : privateFd;
    }

    /** Whether the wire is served from the private duplicate. */
    public boolean isolated() {
        return state == ClaimState.DIVERTED || state == ClaimState.ROLLED_FORWARD || state == ClaimState.STUCK;
    }

    /**
     * Takes the wire off {@code fd}. Never throws: every failure ends in {@link ClaimState#IN_PLACE}
     * (fd on the wire) or {@link ClaimState#ROLLED_FORWARD} (P on the wire).
     */
    public ClaimState engage() {
        if (platform == null) {
            state = ClaimState.IN_PLACE; // provider selection has already said why
            return state;
        }
        // Rule 3: the duplicate comes first, above the standard range, and is recorded at once.
        try {
            privateFd = platform.duplicateAboveStandard(fd);
        } catch (DescriptorException e) {
            return inPlace("the private duplicate could not be made", e);
        }
        int diversion;
        try {
            diversion = openDiversion();
        } catch (DescriptorException e) {
            closeQuietly(privateFd, "the unused private duplicate");
            privateFd = -1;
            return inPlace("the diversion could not be opened", e);
        }
        // Rule 4: divert. Any failure here may have moved fd: roll back (rule 6).
        DescriptorException failure = null;
        try {
            platform.duplicateOnto(diversion, fd);
        } catch (DescriptorException e) {
            failure = e;
        }
        try {
            platform.close(diversion);
        } catch (DescriptorException e) {
            failure = failure != null ? failure : e;
        }
        if (failure == null) {
            try {
                platform.rebindStandardHandle(fd);
            } catch (DescriptorException e) {
                failure = e;
            }
        }
        if (failure == null) {
            state = ClaimState.DIVERTED;
            flushJvmStdout();
            return state;
        }
        return rollBack(failure);
    }

    private ClaimState rollBack(DescriptorException failure) {
        DescriptorException rollbackFailure = putWireBack("after the rollback");
        if (rollbackFailure != null) {
            // Rule 6: fd is off the wire and stays so; P still holds the wire: roll forward.
            state = ClaimState.ROLLED_FORWARD;
            LOG.log(Level.WARNING, "fd {0}: diverting failed ({1}) and so did the rollback ({2}); "
                    + "serving the wire from private fd {3}; the restore at exit will try again",
                    fd, failure.getMessage(), rollbackFailure.getMessage(), privateFd);
            return state;
        }
        closeQuietly(privateFd, "the private duplicate after the rollback");
        privateFd = -1;
        return inPlace("diverting failed and was rolled back", failure);
    }

    /**
     * Puts the wire back on fd (rule 7). On success the claim is {@link ClaimState#RELEASED} and
     * the caller deregisters it; P is closed when {@code mayClosePrivate} (no thread can still be
     * blocked on it, rule 8), else left open. On failure the claim is {@link ClaimState#STUCK}, P
     * stays open, and calling again retries. Never throws.
     *
     * @return true when released
     */
    public boolean release(boolean mayClosePrivate) {
        if (state == ClaimState.RELEASED) {
            return true;
        }
        if (state == ClaimState.IN_PLACE) {
            state = ClaimState.RELEASED;
            return true;
        }
        if (fd == PlatformDescriptors.STDOUT) {
            flushJvmStdout(); // stray buffered text drains into the diversion, not onto the wire
        }
        DescriptorException restoreFailure = putWireBack("after the restore");
        if (restoreFailure != null) {
            state = ClaimState.STUCK;
            LOG.log(Level.ERROR, "fd {0}: the restore failed ({1}); fd {0} stays diverted and "
                    + "claimed, so later claims are refused; private fd {2} keeps the wire",
                    fd, restoreFailure.getMessage(), privateFd);
            return false;
        }
        if (mayClosePrivate) {
            closeQuietly(privateFd, "the private duplicate after the restore");
        } else {
            LOG.log(Level.WARNING, "fd {0}: a thread may still be blocked on private fd {1}; "
                    + "leaving it open rather than recycling it under that thread", fd, privateFd);
        }
        privateFd = -1;
        state = ClaimState.RELEASED;
        return true;
    }

    /** fd 0: the null device. fd 1: a duplicate of fd 2, or the null device when that is unsafe. */
    private int openDiversion() throws DescriptorException {
        if (fd == PlatformDescriptors.STDIN) {
            return platform.openNullDevice(Access.READ);
        }
        if (stderrIsSafeDiversion()) {
            try {
                return platform.duplicate(PlatformDescriptors.STDERR);
            } catch (DescriptorException e) {
                LOG.log(Level.DEBUG, "fd 2 could not be duplicated ({0}); diverting fd 1 to the null device", e.getMessage());
            }
        }
        return platform.openNullDevice(Access.WRITE);
    }

    /**
     * fd 2 is a safe place for stray output unless it is closed, not open for writing, or the
     * same file as the wire ({@code 2>&1}); a shared terminal is fine, since a person reads both
     * anyway.
     */
    private boolean stderrIsSafeDiversion() {
        try {
            FileIdentity err = platform.identity(PlatformDescriptors.STDERR);
            if (!err.writable()) {
                return false;
            }
            return err.isTerminal() || !platform.sameFile(PlatformDescriptors.STDERR, privateFd);
        } catch (DescriptorException e) {
            return false; // cannot tell: the null device is the safe side
        }
    }

    private ClaimState inPlace(String why, DescriptorException cause) {
        state = ClaimState.IN_PLACE;
        LOG.log(Level.WARNING, "fd {0}: {1} ({2}); serving it in place, unisolated", fd, why, cause.getMessage());
        return state;
    }

    /**
     * {@code dup2(P, fd)}, then the standard handle rebound (best effort, rules 6 and 7). Returns
     * null when fd is back on the wire, else the failure, with P still holding the wire.
     */
    private DescriptorException putWireBack(String when) {
        try {
            platform.duplicateOnto(privateFd, fd);
        } catch (DescriptorException e) {
            return e;
        }
        rebindQuietly(when);
        return null;
    }

    private void rebindQuietly(String when) {
        try {
            platform.rebindStandardHandle(fd);
        } catch (DescriptorException e) {
            LOG.log(Level.WARNING, "fd {0}: rebinding the standard handle {1} failed ({2})", fd, when, e.getMessage());
        }
    }

    private void closeQuietly(int descriptor, String what) {
        try {
            platform.close(descriptor);
        } catch (DescriptorException e) {
            LOG.log(Level.WARNING, "closing {0} (fd {1}) reported an error ({2}); not retried",
                    what, descriptor, e.getMessage());
        }
    }

    private static void flushJvmStdout() {
        System.out.flush();
    }

    @Override
    public String toString() {
        return "fd " + fd + " " + state + (privateFd >= 0 ? " (private fd " + privateFd + ")" : "");
    }
}
