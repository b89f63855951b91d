package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.StderrPolicy;
import io.mcpwire.stdio.StrayOutput;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where stray output goes, decided once, and fd 2 (see {@code docs/claim.md}, "Stray output never
 * blocks"): built from the {@link StrayOutput} setting and what fd 2 is, examined once before any
 * descriptor moves, it says what the claim does with fd 2 ({@link Role}), opens fd 1's and fd 2's
 * diversions, and owns the stray-output drain from its start to its end. A stderr that cannot be
 * examined is never a place for stray output; one of which it cannot be told whether it is the
 * wire is claimed as if it were. Threads: its claim's, one at a time.
 */
final class StrayOutputRoute implements StreamClaim.Diversion {
    /** How long the release waits for the drain to write what it holds. */
    private static final long DRAIN_FINISH_MILLIS = 1_000;

    /** What the claim does with fd 2. */
    enum Role {
        /** Left as the host gave it (stray output may still go there, through the drain or not). */
        LEFT_ALONE,
        /** The same file as fd 1 and not a terminal ({@code 2>&1}): claimed as the wire (the fd 2 rule). */
        WIRE,
        /** Claimed into the stray-output drain ({@link StderrPolicy#GUARDED}), so that writing it cannot block. */
        GUARDED
    }

    /** Where fd 1's stray output goes. */
    private enum Destination {
        /** The user's file ({@code mcpwire.stray-output=PATH}), or the null device when it cannot be opened. */
        FILE,
        /** stderr: through the drain when fd 2 can stall, else a duplicate of fd 2. */
        STDERR,
        /** The null device: asked for, or stderr is no place for it. */
        NULL_DEVICE
    }

    /** What fd 2 is, to stray output. */
    private enum Kind {
        /** A writable file apart from the wire (or a terminal shared with it): stray output may go there. */
        SEPARATE,
        /** The same file as fd 1, not a terminal: the wire. */
        WIRE,
        /** Closed, read-only, the JVM's own, or impossible to examine: no place for stray output. */
        UNUSABLE
    }

    private final PlatformDescriptors platform;
    private final Destination destination;
    /** The user's file, where the destination is {@link Destination#FILE}. */
    private final Optional<Path> file;
    private final Kind kind;
    /** Whether fd 2 blocks its writer once full and unread: a pipe or a socket. */
    private final boolean canStall;
    private final Role role;
    private final Optional<StrayDrain> drain;

    private StrayOutputRoute(PlatformDescriptors platform, StrayOutput stray, Destination destination, Kind kind,
                             boolean canStall, Role role, Optional<StrayDrain> drain) {
        this.platform = platform;
        this.file = stray instanceof StrayOutput.AppendTo f ? Optional.of(f.file()) : Optional.empty();
        this.destination = destination;
        this.kind = kind;
        this.canStall = canStall;
        this.role = role;
        this.drain = drain;
    }

    /**
     * Examines fd 2 for a claim of stdout and decides what to do with it: the drain is started
     * here, before any descriptor moves, so that its descriptors take no value a diversion frees.
     *
     * @param given whether the parent gave fd 2 (its origin, which the claim's diversions tell)
     */
    static StrayOutputRoute examine(PlatformDescriptors platform, StrayOutput stray, StderrPolicy policy, boolean given) {
        Optional<FileIdentity> identity = given ? identity(platform) : Optional.empty();
        boolean canStall = identity.isPresent()
                && (identity.get().kind() == FileIdentity.Kind.PIPE || identity.get().kind() == FileIdentity.Kind.SOCKET);
        Kind kind = given ? kind(platform, identity) : sharesTheWire(platform) ? Kind.WIRE : Kind.UNUSABLE;
        Destination destination = destination(stray, kind);
        if (kind == Kind.WIRE) {
            return new StrayOutputRoute(platform, stray, destination, kind, canStall, Role.WIRE, Optional.empty());
        }
        // The drain, only where stray output goes to a stderr that can stall.
        Optional<StrayDrain> drain = destination == Destination.STDERR && canStall ? StrayDrain.start(platform) : Optional.empty();
        Role role = policy == StderrPolicy.GUARDED && drain.isPresent() ? Role.GUARDED : Role.LEFT_ALONE;
        return new StrayOutputRoute(platform, stray, destination, kind, canStall, role, drain);
    }

    /** Where fd 1's stray output goes: the one place the setting is read; every later choice follows it. */
    private static Destination destination(StrayOutput stray, Kind kind) {
        if (stray instanceof StrayOutput.AppendTo) {
            return Destination.FILE;
        }
        return stray instanceof StrayOutput.Stderr && kind == Kind.SEPARATE ? Destination.STDERR : Destination.NULL_DEVICE;
    }

    /** A claim that leaves fd 2 alone and has no drain: stdout is not claimed, or not the parent's. */
    static StrayOutputRoute untouched(PlatformDescriptors platform, StrayOutput stray) {
        return new StrayOutputRoute(platform, stray, destination(stray, Kind.UNUSABLE), Kind.UNUSABLE, false, Role.LEFT_ALONE,
                Optional.empty());
    }

    /**
     * Whether fd 2, whose origin is not known to be the parent's, is the same file as fd 1, the
     * parent's wire: no file the JVM opens for itself is, so it is the wire under {@code 2>&1}.
     */
    private static boolean sharesTheWire(PlatformDescriptors platform) {
        try {
            return platform.sameFile(PlatformDescriptors.STDERR, PlatformDescriptors.STDOUT);
        } catch (DescriptorException e) {
            return false; // neither its origin nor its file can be told: left alone, as a file of the JVM's may be there
        }
    }

    private static Optional<FileIdentity> identity(PlatformDescriptors platform) {
        try {
            return Optional.of(platform.identity(PlatformDescriptors.STDERR));
        } catch (DescriptorException e) {
            return Optional.empty(); // cannot be examined: never a diversion, but it may still be the wire
        }
    }

    private static Kind kind(PlatformDescriptors platform, Optional<FileIdentity> identity) {
        if (identity.isPresent() && !identity.get().writable()) {
            return Kind.UNUSABLE; // a JVM started with fd 2 closed may have a read-only file there
        }
        boolean same;
        try {
            same = platform.sameFile(PlatformDescriptors.STDERR, PlatformDescriptors.STDOUT);
        } catch (DescriptorException e) {
            // Whether stderr is the wire cannot be told: claim it, so that nothing written to it can reach the wire.
            LOG.log(Level.WARNING, "whether fd 2 is the wire cannot be told ({0}); claiming it as if it were", e.getMessage());
            return Kind.WIRE;
        }
        if (same) {
            return identity.isPresent() && identity.get().isTerminal() ? Kind.SEPARATE : Kind.WIRE; // a shared terminal is read by a person
        }
        return identity.isPresent() ? Kind.SEPARATE : Kind.UNUSABLE;
    }

    /** What the claim does with fd 2. */
    Role role() {
        return role;
    }

    /** fd 1's diversion: the stray-output file, stderr (the drain's pipe where it can stall), or the null device. */
    private int openStdoutDiversion() throws DescriptorException {
        switch (destination) {
            case FILE:
                return appendOrNull(file.orElseThrow());
            case STDERR:
                try {
                    return openStderrTarget();
                } catch (DescriptorException e) {
                    LOG.log(Level.DEBUG, "fd 2 could not be duplicated ({0}); diverting fd 1 to the null device", e.getMessage());
                }
                return platform.openNullDevice(Access.WRITE);
            default:
                return platform.openNullDevice(Access.WRITE);
        }
    }

    /** A new descriptor on stderr: the drain's pipe when there is one, else a duplicate of fd 2. */
    private int openStderrTarget() throws DescriptorException {
        if (drain.isPresent()) {
            try {
                return drain.get().openWriteEnd();
            } catch (DescriptorException e) {
                LOG.log(Level.DEBUG, "the drain''s pipe could not be duplicated ({0}); diverting fd 1 to stderr directly", e.getMessage());
            }
        }
        return platform.duplicate(PlatformDescriptors.STDERR);
    }

    /** fd 2's own diversion, when it is claimed: the drain's pipe when guarded; as the wire, the stray-output file, else the null device. */
    private int openStderrDiversion() throws DescriptorException {
        if (role == Role.GUARDED) {
            return drain.orElseThrow().openWriteEnd();
        }
        return file.isPresent() ? appendOrNull(file.get()) : platform.openNullDevice(Access.WRITE);
    }

    /** The diversion of {@code fd}, fd 1 or fd 2 ({@link #openStdoutDiversion}, {@link #openStderrDiversion}). */
    @Override
    public int open(int fd) throws DescriptorException {
        return switch (fd) {
            case PlatformDescriptors.STDOUT -> openStdoutDiversion();
            case PlatformDescriptors.STDERR -> openStderrDiversion();
            default -> throw new IllegalArgumentException("fd " + fd + "'s diversion is not the stray-output route's");
        };
    }

    /** A descriptor appending to the user's stray-output file, else the null device. */
    private int appendOrNull(Path target) throws DescriptorException {
        try {
            return platform.openAppend(target.toString());
        } catch (DescriptorException e) {
            LOG.log(Level.WARNING, "stray output cannot go to {0} ({1}); it goes to the null device",
                    target, e.getMessage());
            return platform.openNullDevice(Access.WRITE);
        }
    }

    /** Every diversion is open: the drain closes its own write end, so that it sees the end once the claim lets go (see {@link StrayDrain#sealWriteEnd}). */
    void diversionsOpen() {
        drain.ifPresent(StrayDrain::sealWriteEnd);
    }

    /**
     * At the release, before fd 2 moves: whether a guarded fd 2 must stay on the drain, because
     * stderr has not taken what the drain holds (a bounded wait): put back onto an unread pipe,
     * the next write to it would block the process for good.
     */
    boolean mustStayOnDrain() {
        return role == Role.GUARDED && drain.isPresent() && !drain.get().awaitWritten(DRAIN_FINISH_MILLIS);
    }

    /** At the release, while fd 1 still writes into the drain (so the line cannot block): the session's dropped bytes, if any. */
    void reportDropped() {
        if (role == Role.GUARDED) {
            drain.ifPresent(StrayDrain::reportUnreported);
        }
    }

    /** Once every stream is back: the drain writes what it holds (a bounded wait) and ends; its pipe has no write end left. */
    void finishDrain() {
        drain.ifPresent(d -> d.finish(DRAIN_FINISH_MILLIS));
    }

    @Override
    public String toString() {
        return "stray output to " + destination + ", fd 2 " + kind + (canStall ? " (can stall)" : "") + ", " + role + (drain.isPresent() ? ", drained" : "");
    }
}
