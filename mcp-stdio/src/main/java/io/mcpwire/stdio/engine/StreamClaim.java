package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.ClaimState;
import java.lang.System.Logger.Level;

/**
 * The claim of one standard descriptor (0, 1, or 2 when it is the wire): the state machine of the
 * claim's rules (docs/claim.md) from the duplicate to the release, taken in two steps, {@link #duplicate()} then {@link #divert()}, every
 * stream's first step before any second one. Registration (one owner) is the caller's, before it and
 * after a successful {@link #release}. Its owner serializes the moves; any thread may read
 * its state, which each move publishes whole.
 */
public final class StreamClaim {

    /** Opens what the descriptor points at while claimed, on a new descriptor the claim then closes. */
    @FunctionalInterface
    public interface Diversion {
        /** Opens the diversion D. */
        int open() throws DescriptorException;
    }

    /** Tries at a fresh diversion after rolling forward: a second one outlasts a passing failure. */
    private static final int FRESH_DIVERSION_ATTEMPTS = 2;

    private final PlatformDescriptors platform;
    private final int fd;
    private final Diversion diversion;
    // The owner's working state, touched by the owner alone.
    private ClaimState state;
    /** The private duplicate P; once recorded, never closed until the restore has succeeded. */
    private int privateFd = -1;
    /** Why the stream is served in place or absent, for logs and for a claim that requires isolation. */
    private String reason = "";
    private Diversions.Absence absence;
    /**
     * What every other thread reads (a refused claim names its holder's state): the four fields
     * above as one value, published whole at the end of each move, so no reader sees half of one.
     */
    private volatile Status status = new Status(null, -1, "", null);

    /** The claim's state, private duplicate, reason and absence, as one value. */
    private record Status(ClaimState state, int privateFd, String reason, Diversions.Absence absence) {
    }

    /** A claim of {@code fd} through {@code platform}, diverted to what {@code diversion} opens. */
    public StreamClaim(PlatformDescriptors platform, int fd, Diversion diversion) {
        if (fd < PlatformDescriptors.STDIN || fd > PlatformDescriptors.STDERR) {
            throw new IllegalArgumentException("only fd 0, 1 and 2 are claimed, not " + fd);
        }
        this.platform = platform;
        this.fd = fd;
        this.diversion = diversion;
    }

    /** The claimed descriptor. */
    public int fd() {
        return fd;
    }

    /** The current state; null before {@link #duplicate()} or {@link #absent}. */
    public ClaimState state() {
        return status.state();
    }

    /** Why the stream is served in place or absent; empty otherwise. */
    public String reason() {
        return status.reason();
    }

    /** The descriptor that carries the wire now: P when diverted or rolled forward, else fd. */
    public int servingDescriptor() {
        Status s = status;
        return s.state() == ClaimState.IN_PLACE || s.state() == ClaimState.RELEASED ? fd : s.privateFd();
    }

    /** Whether the wire is served from the private duplicate. */
    public boolean isolated() {
        ClaimState s = status.state();
        return s == ClaimState.DIVERTED || s == ClaimState.ROLLED_FORWARD || s == ClaimState.STUCK;
    }

    /** Ends a move: its result, published whole to other threads. */
    private ClaimState publish() {
        status = new Status(state, privateFd, reason, absence);
        return state;
    }

    /**
     * The parent gave no such stream, or it cannot be told whether it did: the claim
     * never touches fd, which may hold one of the JVM's own files.
     */
    public ClaimState absent(Diversions.Absence why) {
        absence = why;
        reason = why.reason();
        state = ClaimState.ABSENT;
        LOG.log(Level.WARNING, "{0}; the claim leaves it alone and serves no wire on it", reason);
        return publish();
    }

    /** Why the stream is absent; null unless {@link ClaimState#ABSENT}. */
    public Diversions.Absence absence() {
        return status.absence();
    }

    /**
     * The first step: the private duplicate, above the standard range and recorded at once (rule
     * 3). A claim of several descriptors makes every duplicate before it diverts any, so that no
     * duplicate can take a handle value that a diversion just freed (on Windows, a value the JVM
     * still holds for one of its own streams). Never throws.
     *
     * @return whether it was made; if not, the stream is {@link ClaimState#IN_PLACE}
     */
    public boolean duplicate() {
        try {
            privateFd = guarded("duplicateAboveStandard(" + fd + ")", () -> platform.duplicateAboveStandard(fd));
            return true;
        } catch (DescriptorException e) {
            inPlace("the private duplicate could not be made", e);
            return false;
        }
    }

    /**
     * The second step, after {@link #duplicate()} succeeded: points fd at the diversion,
     * rolling back, or forward when the rollback fails too. Never throws.
     */
    public ClaimState divert() {
        if (privateFd < 0) {
            throw new IllegalStateException("fd " + fd + ": divert() before a private duplicate was made");
        }
        int d;
        try {
            d = guarded("open the diversion", diversion::open);
        } catch (DescriptorException e) {
            closeQuietly(privateFd, "the unused private duplicate");
            privateFd = -1;
            return inPlace("the diversion could not be opened", e);
        }
        // Any failure here may have moved fd: roll back.
        DescriptorException failure = divertOnto(d);
        if (failure == null) {
            state = ClaimState.DIVERTED;
            publish();
            flushIfDiverted();
            return state;
        }
        return rollBack(failure);
    }

    /**
     * {@code dup2(D, fd)}, close D, rebind the standard handle; the first failure, or null. A
     * diversion that landed on fd itself (fd was closed, by a destroying {@code dup2}, and D took
     * the lowest free descriptor) is already in place: it is only rebound.
     */
    private DescriptorException divertOnto(int d) {
        DescriptorException failure = null;
        if (d != fd) {
            try {
                guarded("dup2(" + d + ", " + fd + ")", () -> platform.duplicateOnto(d, fd));
            } catch (DescriptorException e) {
                failure = e;
            }
            try {
                guarded("close(" + d + ")", () -> platform.close(d));
            } catch (DescriptorException e) {
                failure = failure != null ? failure : e;
            }
        }
        if (failure == null) {
            try {
                rebind();
            } catch (DescriptorException e) {
                failure = e;
            }
        }
        return failure;
    }

    private ClaimState rollBack(DescriptorException failure) {
        DescriptorException rollbackFailure = putWireBack("after the rollback");
        if (rollbackFailure != null) {
            // The rollback failed: fd is off the wire and stays so; P still holds the wire: roll forward.
            state = ClaimState.ROLLED_FORWARD;
            publish();
            LOG.log(Level.WARNING, "fd {0}: diverting failed ({1}) and so did the rollback ({2}); "
                    + "serving the wire from private fd {3}; the restore at exit will try again",
                    fd, failure.getMessage(), rollbackFailure.getMessage(), privateFd);
            settleRolledForward();
            flushIfDiverted();
            return state;
        }
        closeQuietly(privateFd, "the private duplicate after the rollback");
        privateFd = -1;
        return inPlace("diverting failed and was rolled back", failure);
    }

    /**
     * Rolled forward, fd may be on the diversion, closed (a destroying {@code dup2}), or still on
     * the wire (a {@code dup2} that failed without moving it), and the OS standard handle may still
     * name the handle that {@code dup2} closed, which a child would inherit. Unless fd is known to
     * be off the wire, it is pointed at a fresh diversion; then the handle is rebound. Best effort;
     * P is never touched.
     */
    private void settleRolledForward() {
        if (!mayStillBeOnWire()) {
            try {
                rebind();
                return; // fd is on the diversion and the slot now names it
            } catch (DescriptorException e) {
                LOG.log(Level.DEBUG, "fd {0}: rebinding after rolling forward failed ({1}); diverting it afresh", fd, e.getMessage());
            }
        }
        DescriptorException last = null;
        for (int attempt = 0; attempt < FRESH_DIVERSION_ATTEMPTS; attempt++) {
            try {
                last = divertOnto(guarded("open the diversion", diversion::open));
            } catch (DescriptorException e) {
                last = e;
            }
            if (last == null) {
                return;
            }
        }
        LOG.log(Level.WARNING, "fd {0}: could not be pointed at a fresh diversion after rolling forward ({1}); "
                + "a child that inherits it may get a closed handle, or the wire", fd, last.getMessage());
    }

    /** Whether fd may still refer to the wire that P holds: true unless the provider says it does not. */
    private boolean mayStillBeOnWire() {
        try {
            return platform.sameFile(fd, privateFd);
        } catch (DescriptorException | RuntimeException e) {
            return true; // closed, or cannot be told (a faulty provider's throw too): divert afresh
        }
    }

    /**
     * Puts the wire back on fd. On success the claim is {@link ClaimState#RELEASED} and
     * the caller deregisters it; P is closed when {@code mayClosePrivate} (no thread can still be
     * blocked on it: none is recycled under a reader), else left open. On failure the claim is {@link ClaimState#STUCK}, P
     * stays open, and calling again retries. Never throws.
     *
     * @return true when released
     */
    public boolean release(boolean mayClosePrivate) {
        if (state == null || state == ClaimState.RELEASED || state == ClaimState.IN_PLACE || state == ClaimState.ABSENT) {
            state = ClaimState.RELEASED;
            publish();
            return true;
        }
        flushIfDiverted(); // stray buffered text drains into the diversion, not onto the wire
        DescriptorException restoreFailure = putWireBack("after the restore");
        if (restoreFailure != null) {
            state = ClaimState.STUCK;
            publish();
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
        publish();
        return true;
    }

    /**
     * Keeps a diverted descriptor diverted at the release, for {@code why}: the claim stays
     * {@link ClaimState#STUCK}, as after a failed restore, and {@link #release} retries. A
     * descriptor that is not diverted is released as usual.
     *
     * @return whether it stays diverted
     */
    public boolean keepDiverted(String why) {
        if (state != ClaimState.DIVERTED && state != ClaimState.ROLLED_FORWARD && state != ClaimState.STUCK) {
            return !release(true);
        }
        reason = "fd " + fd + ": " + why;
        state = ClaimState.STUCK;
        publish();
        LOG.log(Level.WARNING, "{0}", reason);
        return true;
    }

    private ClaimState inPlace(String why, DescriptorException cause) {
        reason = "fd " + fd + ": " + why + " (" + cause.getMessage() + ")";
        state = ClaimState.IN_PLACE;
        LOG.log(Level.WARNING, "{0}; serving it in place, unisolated", reason);
        return publish();
    }

    /**
     * {@code dup2(P, fd)}, then the standard handle rebound (best effort, as in a rollback or a restore). Returns
     * null when fd is back on the wire, else the failure, with P still holding the wire.
     */
    private DescriptorException putWireBack(String when) {
        try {
            int p = privateFd;
            guarded("dup2(" + p + ", " + fd + ")", () -> platform.duplicateOnto(p, fd));
        } catch (DescriptorException e) {
            return e;
        }
        rebindQuietly(when);
        return null;
    }

    private void rebindQuietly(String when) {
        try {
            rebind();
        } catch (DescriptorException e) {
            LOG.log(Level.WARNING, "fd {0}: rebinding the standard handle {1} failed ({2})", fd, when, e.getMessage());
        }
    }

    private void closeQuietly(int descriptor, String what) {
        try {
            guarded("close(" + descriptor + ")", () -> platform.close(descriptor));
        } catch (DescriptorException e) {
            LOG.log(Level.WARNING, "closing {0} (fd {1}) reported an error ({2}); not retried",
                    what, descriptor, e.getMessage());
        }
    }

    /**
     * Flushes {@code System.out}, only for fd 1, only while fd 1 is off the wire, and only where
     * {@code System.out} writes fd 1 itself (elsewhere it is swapped, see {@link JvmStreams}), so
     * that text it buffered drains into the diversion and never onto the wire.
     */
    private void flushIfDiverted() {
        if (fd == PlatformDescriptors.STDOUT && platform.jvmStreamsFollowDescriptors()) {
            JvmStreams.flushQuietly(System.out, "System.out");
        }
    }

    private void rebind() throws DescriptorException {
        guarded("rebindStandardHandle(" + fd + ")", () -> platform.rebindStandardHandle(fd));
    }

    /** A provider call that returns a descriptor. */
    @FunctionalInterface
    private interface IntCall {
        int run() throws DescriptorException;
    }

    /** A provider call that returns nothing. */
    @FunctionalInterface
    private interface VoidCall {
        void run() throws DescriptorException;
    }

    /**
     * Runs a provider call so that it only ever succeeds or throws a {@link DescriptorException}:
     * an unchecked exception from a faulty provider takes the same safe paths as an OS error.
     */
    private int guarded(String what, IntCall call) throws DescriptorException {
        try {
            return call.run();
        } catch (RuntimeException e) {
            throw new DescriptorException(what, fd, 0, "the provider threw " + e);
        }
    }

    private void guarded(String what, VoidCall call) throws DescriptorException {
        guarded(what, () -> {
            call.run();
            return 0;
        });
    }

    @Override
    public String toString() {
        Status s = status;
        return "fd " + fd + " " + s.state() + (s.privateFd() >= 0 ? " (private fd " + s.privateFd() + ")" : "");
    }
}
