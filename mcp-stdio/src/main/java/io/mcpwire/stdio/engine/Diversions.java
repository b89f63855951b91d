package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.StderrPolicy;
import io.mcpwire.stdio.StrayOutput;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * What the standard descriptors are before a claim touches them, and so where each is diverted
 * (see {@code docs/claim.md}, "Terms"): fd 0 to the null device; fd 1 to the stray-output target;
 * fd 2, when it is the wire, to the stray-output target unless that is stderr itself. A stderr that
 * can stall (a pipe or socket) is reached through a {@link StrayDrain}, which fd 2 writes into too
 * when it is {@link StderrPolicy#GUARDED}. Every question is asked once, before any descriptor
 * moves; a descriptor that cannot be examined is taken on the safe side.
 */
public final class Diversions {

    /** What fd 2 is, for the diversion of fd 1. */
    private enum Stderr {
        /** A writable file apart from the wire (or a terminal shared with it): stray output may go there. */
        SEPARATE,
        /** The same file as fd 1, not a terminal ({@code 2>&1}): it is the wire, and is claimed too. */
        WIRE,
        /** Closed, read-only, the JVM's own, or impossible to examine: no place for stray output. */
        UNUSABLE
    }

    private final PlatformDescriptors platform;
    private final StrayOutput stray;
    private final StderrPolicy stderrPolicy;
    private Optional<StrayDrain> drain = Optional.empty();
    private final Absence[] absences = new Absence[3];
    private final boolean[] asked = new boolean[3];
    private Stderr stderrKind;
    /** Whether fd 2 blocks its writer once full and unread: a pipe or a socket. */
    private boolean stderrCanStall;

    /** Diversions on {@code platform}. */
    public Diversions(PlatformDescriptors platform, StrayOutput stray, StderrPolicy stderrPolicy) {
        this.platform = platform;
        this.stray = stray;
        this.stderrPolicy = stderrPolicy;
    }

    /**
     * Starts the drain when stray output goes to a stderr that can stall; call before any
     * descriptor moves, so that its descriptors take no value a diversion frees.
     */
    public void startDrain() {
        if (stray instanceof StrayOutput.Stderr && stderrKind() == Stderr.SEPARATE && stderrCanStall) {
            drain = StrayDrain.start(platform);
        }
    }

    /** Whether fd 2 is claimed for the drain: guarded, and there is a drain. */
    public boolean guardsStderr() {
        return stderrPolicy == StderrPolicy.GUARDED && drain.isPresent();
    }

    /** The drain, once every diversion is open: it closes its own write end (see {@link StrayDrain#sealWriteEnd}). */
    public Optional<StrayDrain> sealedDrain() {
        drain.ifPresent(StrayDrain::sealWriteEnd);
        return drain;
    }

    /**
     * Why a standard descriptor is left alone: the claim never touches a descriptor the JVM owns.
     *
     * @param reason     for logs and for the errors of its stream
     * @param endOfInput whether reading it is a plain end of input (the parent gave none), rather
     *                   than an error (its origin could not be told)
     */
    public record Absence(String reason, boolean endOfInput) {
    }

    /** Why {@code fd} must be left alone, or empty when the parent gave it and the claim may take it. */
    public Optional<Absence> absence(int fd) {
        if (!asked[fd]) {
            asked[fd] = true;
            absences[fd] = ask(fd);
        }
        return Optional.ofNullable(absences[fd]);
    }

    private Absence ask(int fd) {
        try {
            return switch (platform.standardOrigin(fd)) {
                case INHERITED -> null;
                case CLOSED -> new Absence("fd " + fd + " was closed when the process started", true);
                case PROCESS_OWN -> new Absence("fd " + fd + " was closed when the process started and now holds "
                        + "one of the JVM's own files", true);
            };
        } catch (DescriptorException | RuntimeException e) {
            // Unsure: a JVM file taken for the wire crashes the JVM; a wire left alone only ends the session.
            return new Absence("fd " + fd + ": whether the parent gave it cannot be told (" + e.getMessage()
                    + "), so it is left alone", false);
        }
    }

    /** Whether the parent gave {@code fd}: only such a descriptor can be the wire and be claimed. */
    public boolean given(int fd) {
        return absence(fd).isEmpty();
    }

    /** Whether fd 2 is the wire: the same file as fd 1, and not a terminal. */
    public boolean stderrIsWire() {
        return stderrKind() == Stderr.WIRE;
    }

    private Stderr stderrKind() {
        if (stderrKind == null) {
            stderrKind = examineStderr();
        }
        return stderrKind;
    }

    private Stderr examineStderr() {
        if (!given(PlatformDescriptors.STDERR)) {
            return Stderr.UNUSABLE;
        }
        FileIdentity err;
        try {
            err = platform.identity(PlatformDescriptors.STDERR);
        } catch (DescriptorException e) {
            err = null; // cannot be examined: never a diversion, but it may still be the wire
        }
        if (err != null && !err.writable()) {
            return Stderr.UNUSABLE; // a JVM started with fd 2 closed may have a read-only file there
        }
        stderrCanStall = err != null && (err.kind() == FileIdentity.Kind.PIPE || err.kind() == FileIdentity.Kind.SOCKET);
        boolean same;
        try {
            same = platform.sameFile(PlatformDescriptors.STDERR, PlatformDescriptors.STDOUT);
        } catch (DescriptorException e) {
            // Whether stderr is the wire cannot be told: claim it, so that nothing written to it can reach the wire.
            LOG.log(Level.WARNING, "whether fd 2 is the wire cannot be told ({0}); claiming it as if it were", e.getMessage());
            return Stderr.WIRE;
        }
        if (same) {
            return err != null && err.isTerminal() ? Stderr.SEPARATE : Stderr.WIRE; // a shared terminal is read by a person
        }
        return err != null ? Stderr.SEPARATE : Stderr.UNUSABLE;
    }

    /** fd 0's diversion: the null device. */
    public int openStdinDiversion() throws DescriptorException {
        return platform.openNullDevice(Access.READ);
    }

    /** fd 1's diversion: the stray-output target. */
    public int openStdoutDiversion() throws DescriptorException {
        if (stray instanceof StrayOutput.AppendTo file) {
            return appendOrNull(file);
        }
        if (stray instanceof StrayOutput.Stderr && stderrKind() == Stderr.SEPARATE) {
            if (drain.isPresent()) {
                try {
                    return drain.get().openWriteEnd();
                } catch (DescriptorException e) {
                    LOG.log(Level.DEBUG, "the drain''s pipe could not be duplicated ({0}); diverting fd 1 to stderr directly", e.getMessage());
                }
            }
            try {
                return platform.duplicate(PlatformDescriptors.STDERR);
            } catch (DescriptorException e) {
                LOG.log(Level.DEBUG, "fd 2 could not be duplicated ({0}); diverting fd 1 to the null device", e.getMessage());
            }
        }
        return platform.openNullDevice(Access.WRITE);
    }

    /** fd 2's diversion when it is guarded: the drain's pipe. */
    public int openGuardedStderrDiversion() throws DescriptorException {
        return drain.orElseThrow(() -> new IllegalStateException("fd 2 is guarded only with a drain")).openWriteEnd();
    }

    /** fd 2's diversion, when it is the wire: the stray-output file, else the null device. */
    public int openWireStderrDiversion() throws DescriptorException {
        if (stray instanceof StrayOutput.AppendTo file) {
            return appendOrNull(file);
        }
        return platform.openNullDevice(Access.WRITE);
    }

    private int appendOrNull(StrayOutput.AppendTo target) throws DescriptorException {
        try {
            return platform.openAppend(target.file().toString());
        } catch (DescriptorException e) {
            LOG.log(Level.WARNING, "stray output cannot go to {0} ({1}); it goes to the null device",
                    target.file(), e.getMessage());
            return platform.openNullDevice(Access.WRITE);
        }
    }
}
