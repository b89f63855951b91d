package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.ClaimState;
import java.lang.System.Logger.Level;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The claim of one standard descriptor (0, 1, or 2 when it is the wire or guarded): the state
 * machine of the claim's rules (docs/claim.md) from the duplicate to the release, taken in two
 * steps, {@link #duplicate()} then {@link #divert()}, every stream's first step before any second
 * one. Every move goes through {@link #move}, which checks it against {@link #MOVES} and throws
 * {@link IllegalStateException} on a move the table does not have. Registration (one owner) is the
 * caller's, before it and after a successful {@link #release}. Its owner serializes the moves; any
 * thread may read its state, which each move publishes whole.
 *
 * <pre>
 * PENDING ── origin not the parent's ──────────────────────► ABSENT
 * PENDING ── duplicate fails ──────────────────────────────► IN_PLACE
 * PENDING ── duplicate ok ─────────────────────────────────► DUPLICATED
 * DUPLICATED ── divert ok ─────────────────────────────────► DIVERTED
 * DUPLICATED ── diversion fails, or rollback ok ───────────► IN_PLACE
 * DUPLICATED ── rollback fails, fd off the wire ───────────► ROLLED_FORWARD
 * DUPLICATED ── rollback fails, fd left on the wire ───────► IN_PLACE
 * DIVERTED, ROLLED_FORWARD, STUCK, KEPT_DIVERTED ── restore ok ─► RELEASED
 *                                                ── restore fails ─► STUCK
 *                                                ── kept on purpose ─► KEPT_DIVERTED
 * PENDING, DUPLICATED, IN_PLACE, ABSENT, RELEASED ── release ─► RELEASED
 * </pre>
 */
public final class StreamClaim {

    /** Opens what a descriptor points at while claimed, on a new descriptor the claim then closes. */
    @FunctionalInterface
    public interface Diversion {
        /** Opens the diversion D for standard descriptor {@code fd}. */
        int open(int fd) throws DescriptorException;
    }

    /** Tries at a fresh diversion after rolling forward: a second one outlasts a passing failure. */
    private static final int FRESH_DIVERSION_ATTEMPTS = 2;

    private final PlatformDescriptors platform;
    private final MoveDuties moves;
    private final int fd;
    /** Every legal move, from each state. */
    static final Map<ClaimState, Set<ClaimState>> MOVES = Map.of(
            ClaimState.PENDING, EnumSet.of(ClaimState.ABSENT, ClaimState.IN_PLACE, ClaimState.DUPLICATED, ClaimState.RELEASED),
            ClaimState.DUPLICATED, EnumSet.of(ClaimState.DIVERTED, ClaimState.IN_PLACE, ClaimState.ROLLED_FORWARD, ClaimState.RELEASED),
            ClaimState.IN_PLACE, EnumSet.of(ClaimState.RELEASED),
            ClaimState.ABSENT, EnumSet.of(ClaimState.RELEASED),
            ClaimState.DIVERTED, EnumSet.of(ClaimState.RELEASED, ClaimState.STUCK, ClaimState.KEPT_DIVERTED),
            ClaimState.ROLLED_FORWARD, EnumSet.of(ClaimState.RELEASED, ClaimState.STUCK, ClaimState.KEPT_DIVERTED),
            ClaimState.STUCK, EnumSet.of(ClaimState.RELEASED, ClaimState.STUCK, ClaimState.KEPT_DIVERTED),
            ClaimState.KEPT_DIVERTED, EnumSet.of(ClaimState.RELEASED, ClaimState.STUCK, ClaimState.KEPT_DIVERTED),
            ClaimState.RELEASED, EnumSet.of(ClaimState.RELEASED));

    private final Diversion diversion;
    // The owner's working state, touched by the owner alone.
    private ClaimState state = ClaimState.PENDING;
    /** The private duplicate P, from its making until it is given up: once recorded, never closed until the restore has succeeded. */
    private Optional<PrivateDuplicate> privateDuplicate = Optional.empty();
    /** Why the stream is served in place or absent, for logs and for a claim that requires isolation. */
    private String reason = "";
    private Diversions.Absence absence;
    /**
     * What every other thread reads (a refused claim names its holder's state): the four fields
     * above as one value, published whole at the end of each move, so no reader sees half of one.
     */
    private volatile Status status = new Status(ClaimState.PENDING, OptionalInt.empty(), "", null);

    /** The claim's state, private duplicate's number while held, reason and absence, as one value. */
    private record Status(ClaimState state, OptionalInt privateFd, String reason, Diversions.Absence absence) {
    }

    /** A claim of {@code fd} through {@code platform}, diverted to what {@code diversion} opens. */
    public StreamClaim(PlatformDescriptors platform, int fd, Diversion diversion) {
        if (fd < PlatformDescriptors.STDIN || fd > PlatformDescriptors.STDERR) {
            throw new IllegalArgumentException("only fd 0, 1 and 2 are claimed, not " + fd);
        }
        this.platform = platform;
        this.moves = new MoveDuties(platform);
        this.fd = fd;
        this.diversion = diversion;
    }

    /** The claimed descriptor. */
    public int fd() {
        return fd;
    }

    /** The current state. */
    public ClaimState state() {
        return status.state();
    }

    /** Why the stream is served in place or absent; empty otherwise. */
    public String reason() {
        return status.reason();
    }

    /** The descriptor that carries the wire now: P while the wire is served from it ({@link #isolated()}), else fd. */
    public int servingDescriptor() {
        Status s = status;
        return isolated(s.state()) ? s.privateFd().getAsInt() : fd;
    }

    /** Whether the wire is served from the private duplicate. */
    public boolean isolated() {
        return isolated(status.state());
    }

    private static boolean isolated(ClaimState s) {
        return s == ClaimState.DIVERTED || s == ClaimState.ROLLED_FORWARD || s == ClaimState.STUCK
                || s == ClaimState.KEPT_DIVERTED;
    }

    /**
     * Moves to {@code next}, checked against {@link #MOVES}, and publishes the result whole to
     * other threads.
     *
     * @throws IllegalStateException when the table has no such move
     */
    private ClaimState move(ClaimState next) {
        if (!MOVES.get(state).contains(next)) {
            throw new IllegalStateException("fd " + fd + ": no move from " + state + " to " + next);
        }
        state = next;
        OptionalInt p = privateDuplicate.isPresent() ? OptionalInt.of(privateDuplicate.get().number()) : OptionalInt.empty();
        status = new Status(state, p, reason, absence);
        return state;
    }

    /** P's number: only while P is held, which every move that uses it is sure of. */
    private int privateFd() {
        if (privateDuplicate.isEmpty()) {
            throw new IllegalStateException("fd " + fd + ": no private duplicate in " + state);
        }
        return privateDuplicate.get().number();
    }

    /** Closes P, once, and forgets it. */
    private void closePrivate(String what) {
        privateDuplicate.get().close(platform, what);
        privateDuplicate = Optional.empty();
    }

    /**
     * The parent gave no such stream, or it cannot be told whether it did: the claim
     * never touches fd, which may hold one of the JVM's own files.
     */
    public ClaimState absent(Diversions.Absence why) {
        absence = why;
        reason = why.reason();
        LOG.log(Level.WARNING, "{0}; the claim leaves it alone and serves no wire on it", reason);
        return move(ClaimState.ABSENT);
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
        if (state != ClaimState.PENDING) {
            throw new IllegalStateException("fd " + fd + ": duplicate() in " + state + ", not before the first step");
        }
        try {
            privateDuplicate = Optional.of(new PrivateDuplicate(fd, privateDuplicate()));
            move(ClaimState.DUPLICATED);
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
        if (state != ClaimState.DUPLICATED) {
            throw new IllegalStateException("fd " + fd + ": divert() in " + state + ", not after a private duplicate was made");
        }
        int d;
        try {
            d = openDiversion();
        } catch (DescriptorException e) {
            closePrivate("the unused private duplicate");
            return inPlace("the diversion could not be opened", e);
        }
        // Any failure here may have moved fd: roll back.
        DescriptorException failure = divertOnto(d);
        if (failure == null) {
            move(ClaimState.DIVERTED);
            flushIfDiverted();
            return state;
        }
        return rollBack(failure);
    }

    /** {@code dup2(D, fd)}, close D, rebind the standard handle, as one step ({@link MoveDuties#divert}); the first failure, or null. */
    private DescriptorException divertOnto(int d) {
        return moves.divert(fd, d, privateFd());
    }

    private ClaimState rollBack(DescriptorException failure) {
        DescriptorException rollbackFailure = putWireBack("after the rollback");
        if (rollbackFailure == null) {
            return inPlaceWithoutPrivate("diverting failed and was rolled back", failure);
        }
        if (!divertedAfresh() && backOnTheWire()) {
            // fd never left the wire (a dup2 that failed without moving it) and could not be
            // diverted, or a late rollback put it back: fd itself serves, as the table must say.
            return inPlaceWithoutPrivate("diverting failed, and fd is on the wire", failure);
        }
        // The rollback failed: fd is off the wire and stays so; P still holds the wire: roll forward.
        move(ClaimState.ROLLED_FORWARD);
        LOG.log(Level.WARNING, "fd {0}: diverting failed ({1}) and so did the rollback ({2}); "
                + "serving the wire from private fd {3}; the restore at exit will try again",
                fd, failure.getMessage(), rollbackFailure.getMessage(), privateFd());
        flushIfDiverted();
        return state;
    }

    private ClaimState inPlaceWithoutPrivate(String why, DescriptorException cause) {
        closePrivate("the private duplicate, unused");
        return inPlace(why, cause);
    }

    /**
     * After a failed rollback, fd may be on the diversion, closed (a destroying {@code dup2}), or
     * still on the wire (a {@code dup2} that failed without moving it), and the OS standard handle
     * may still name the handle that {@code dup2} closed, which a child would inherit. Unless fd is
     * known to be off the wire, it is pointed at a fresh diversion; then the handle is rebound.
     * Best effort; P is never touched.
     *
     * @return whether fd is off the wire: on a diversion, its slot rebound or not
     */
    private boolean divertedAfresh() {
        if (!mayStillBeOnWire()) {
            DescriptorException e = moves.dutiesAlone(fd, privateFd());
            if (e == null) {
                return true; // fd is on the diversion and the slot now names it
            }
            LOG.log(Level.DEBUG, "fd {0}: rebinding after the failed rollback failed ({1}); diverting it afresh", fd, e.getMessage());
        }
        DescriptorException last = null;
        for (int attempt = 0; attempt < FRESH_DIVERSION_ATTEMPTS; attempt++) {
            try {
                last = divertOnto(openDiversion());
            } catch (DescriptorException e) {
                last = e;
            }
            if (last == null) {
                return true;
            }
        }
        LOG.log(Level.WARNING, "fd {0}: could not be pointed at a fresh diversion after a failed rollback ({1})",
                fd, last.getMessage());
        return false;
    }

    /**
     * Whether fd is on the wire after every fresh diversion failed: so the provider says, or,
     * where it cannot tell (fd closed by a destroying {@code dup2}, or the query failed), a second
     * rollback put it there. Otherwise fd is off the wire, and P serves.
     */
    private boolean backOnTheWire() {
        return switch (whereIsFd()) {
            case ON_THE_WIRE -> true;
            case OFF_THE_WIRE -> false;
            case UNKNOWN -> putWireBack("after a second rollback") == null;
        };
    }

    /** Whether fd may still refer to the wire that P holds: true unless the provider says it does not. */
    private boolean mayStillBeOnWire() {
        return whereIsFd() != FdPlace.OFF_THE_WIRE;
    }

    /** Where fd stands against the wire P holds, as the provider tells. */
    private enum FdPlace { ON_THE_WIRE, OFF_THE_WIRE, UNKNOWN }

    private FdPlace whereIsFd() {
        try {
            return platform.sameFile(fd, privateFd()) ? FdPlace.ON_THE_WIRE : FdPlace.OFF_THE_WIRE;
        } catch (DescriptorException | RuntimeException e) {
            return FdPlace.UNKNOWN; // closed, or cannot be told (a faulty provider's throw too)
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
        if (state == ClaimState.DUPLICATED) {
            closePrivate("the private duplicate of a claim abandoned before it diverted"); // fd never moved
        }
        if (!isolated()) {
            move(ClaimState.RELEASED);
            return true;
        }
        flushIfDiverted(); // stray buffered text drains into the diversion, not onto the wire
        DescriptorException restoreFailure = putWireBack("after the restore");
        if (restoreFailure != null) {
            move(ClaimState.STUCK);
            LOG.log(Level.ERROR, "fd {0}: the restore failed ({1}); fd {0} stays diverted and "
                    + "claimed, so later claims are refused; private fd {2} keeps the wire",
                    fd, restoreFailure.getMessage(), privateFd());
            return false;
        }
        if (mayClosePrivate) {
            closePrivate("the private duplicate after the restore");
        } else {
            privateDuplicate.get().leaveOpen();
            privateDuplicate = Optional.empty();
        }
        move(ClaimState.RELEASED);
        return true;
    }

    /**
     * Keeps a diverted descriptor diverted at the release, for {@code why}: the claim is
     * {@link ClaimState#KEPT_DIVERTED}, held as after a failed restore, and {@link #release}
     * retries. A descriptor that is not diverted is released as usual.
     *
     * @return whether it stays diverted
     */
    public boolean keepDiverted(String why) {
        if (!isolated()) {
            return !release(true);
        }
        reason = "fd " + fd + ": " + why;
        move(ClaimState.KEPT_DIVERTED);
        LOG.log(Level.WARNING, "{0}", reason);
        return true;
    }

    private ClaimState inPlace(String why, DescriptorException cause) {
        reason = "fd " + fd + ": " + why + " (" + cause.getMessage() + ")";
        LOG.log(Level.WARNING, "{0}; serving it in place, unisolated", reason);
        return move(ClaimState.IN_PLACE);
    }

    /**
     * {@code dup2(P, fd)}, then the standard handle rebound (best effort, as in a rollback or a
     * restore), as one step ({@link MoveDuties#putBack}). Returns null when fd is back on the wire,
     * else the failure, with P still holding the wire.
     */
    private DescriptorException putWireBack(String when) {
        return moves.putBack(fd, privateFd(), when);
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

    /** The private duplicate P, a provider's unchecked throw taken as its failure. */
    private int privateDuplicate() throws DescriptorException {
        try {
            return platform.duplicateAboveStandard(fd);
        } catch (RuntimeException e) {
            throw GuardedCalls.threw(fd, "duplicateAboveStandard(" + fd + ")", e);
        }
    }

    /** A new diversion D, a provider's unchecked throw taken as its failure. */
    private int openDiversion() throws DescriptorException {
        try {
            return diversion.open(fd);
        } catch (RuntimeException e) {
            throw GuardedCalls.threw(fd, "open the diversion", e);
        }
    }

    @Override
    public String toString() {
        Status s = status;
        return "fd " + fd + " " + s.state() + (s.privateFd().isPresent() ? " (private fd " + s.privateFd().getAsInt() + ")" : "");
    }
}
