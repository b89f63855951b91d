package io.mcpwire.stdio.engine;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import java.util.Optional;

/**
 * Whether the parent gave each standard descriptor, and fd 0's diversion, the null device (see
 * {@code docs/claim.md}, "Terms"; fd 1's and fd 2's are the stray-output route's). Every question
 * is asked once, before any descriptor moves; a descriptor that cannot be examined is taken on
 * the safe side.
 */
public final class Diversions implements StreamClaim.Diversion {

    private final PlatformDescriptors platform;
    private final Absence[] absences = new Absence[3];
    private final boolean[] asked = new boolean[3];

    /** Diversions on {@code platform}. */
    public Diversions(PlatformDescriptors platform) {
        this.platform = platform;
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

    /** fd 0's diversion, the null device; {@code fd} must be fd 0: fd 1's and fd 2's are the stray-output route's. */
    @Override
    public int open(int fd) throws DescriptorException {
        if (fd != PlatformDescriptors.STDIN) {
            throw new IllegalArgumentException("fd " + fd + "'s diversion is the stray-output route's, not fd 0's");
        }
        return platform.openNullDevice(Access.READ);
    }
}
