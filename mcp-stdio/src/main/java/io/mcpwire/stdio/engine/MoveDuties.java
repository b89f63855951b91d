package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import java.lang.System.Logger.Level;

/**
 * The moves of a standard descriptor and what a provider owes after each (see
 * {@code PlatformDescriptors}, "Duties"), in one place: each move and its duties run as one step
 * ({@link PlatformDescriptors#moveStandard}: on Windows, on one processor, with no Java child
 * starting meanwhile, and given up on when it waits too long); the duties are the OS slot, the
 * JVM's start-up handle value, and, for fd 0, a read stranded on the wire, with the claim's private
 * duplicate named. The last two are best effort and always run; a failure of the first is thrown
 * after them.
 */
final class MoveDuties {
    private MoveDuties() {
    }

    /** A move's calls, which report their first failure rather than throw. */
    @FunctionalInterface
    private interface Step {
        DescriptorException run();
    }

    /**
     * {@code dup2(d, fd)}, close D, the duties, as one step; the first failure, or null. A diversion
     * that landed on fd itself (fd was closed, and D took the lowest free descriptor) is only
     * rebound. When the step could not even start, D is closed here.
     */
    static DescriptorException divert(PlatformDescriptors platform, int fd, int d, int privateFd) {
        boolean[] started = {false};
        DescriptorException failure = asOneStep(platform, fd, started, () -> {
            DescriptorException first = null;
            if (d != fd) {
                try {
                    GuardedCalls.guarded(fd, "dup2(" + d + ", " + fd + ")", () -> platform.duplicateOnto(d, fd));
                } catch (DescriptorException e) {
                    first = e;
                }
                try {
                    GuardedCalls.guarded(fd, "close(" + d + ")", () -> platform.close(d));
                } catch (DescriptorException e) {
                    first = first != null ? first : e;
                }
            }
            if (first == null) {
                try {
                    afterMove(platform, fd, privateFd);
                } catch (DescriptorException e) {
                    first = e;
                }
            }
            return first;
        });
        if (!started[0] && d != fd) {
            try {
                GuardedCalls.guarded(fd, "close(" + d + ")", () -> platform.close(d));
            } catch (DescriptorException e) {
                LOG.log(Level.DEBUG, "fd {0}: closing the unused diversion fd {1} failed ({2})", fd, d, e.getMessage());
            }
        }
        return failure;
    }

    /**
     * {@code dup2(P, fd)} and the duties (best effort, logged {@code when}), as one step; null when fd
     * is back on the wire, else the failure, with P still holding the wire.
     */
    static DescriptorException putBack(PlatformDescriptors platform, int fd, int privateFd, String when) {
        return asOneStep(platform, fd, new boolean[1], () -> {
            try {
                GuardedCalls.guarded(fd, "dup2(" + privateFd + ", " + fd + ")", () -> platform.duplicateOnto(privateFd, fd));
            } catch (DescriptorException e) {
                return e;
            }
            try {
                afterMove(platform, fd, privateFd);
            } catch (DescriptorException e) {
                LOG.log(Level.WARNING, "fd {0}: rebinding the standard handle {1} failed ({2})", fd, when, e.getMessage());
            }
            return null;
        });
    }

    /** The duties alone, as one step (fd already moved: rolled forward onto the diversion). */
    static DescriptorException dutiesAlone(PlatformDescriptors platform, int fd, int privateFd) {
        return asOneStep(platform, fd, new boolean[1], () -> {
            try {
                afterMove(platform, fd, privateFd);
                return null;
            } catch (DescriptorException e) {
                return e;
            }
        });
    }

    /** Runs {@code step} through the provider's {@code moveStandard}; a step it gave up on, or never ran, is a failure. */
    private static DescriptorException asOneStep(PlatformDescriptors platform, int fd, boolean[] started, Step step) {
        DescriptorException[] outcome = {null};
        try {
            GuardedCalls.guarded(fd, "moveStandard(" + fd + ")", () -> platform.moveStandard(fd, () -> {
                started[0] = true;
                outcome[0] = step.run();
            }));
        } catch (DescriptorException e) {
            return e; // not run, or given up on: whether fd moved is not known, so it is a failure
        }
        return outcome[0];
    }

    /**
     * The duties after {@code fd} moved, its private duplicate being {@code privateFd} (-1 for none).
     *
     * @throws DescriptorException when the slot could not be set
     */
    static void afterMove(PlatformDescriptors platform, int fd, int privateFd) throws DescriptorException {
        DescriptorException slot = null;
        try {
            GuardedCalls.guarded(fd, "rebindStandardHandle(" + fd + ")", () -> platform.rebindStandardHandle(fd));
        } catch (DescriptorException e) {
            slot = e;
        }
        bestEffort(fd, "followStartupHandle", () -> platform.followStartupHandle(fd));
        if (fd == PlatformDescriptors.STDIN) {
            bestEffort(fd, "cancelStrandedReads", () -> platform.cancelStrandedReads(fd, privateFd));
        }
        if (slot != null) {
            throw slot;
        }
    }

    /** A best-effort duty, whose faulty provider's throw is logged and goes no further. */
    private static void bestEffort(int fd, String duty, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "fd {0}: the provider''s {1} threw ({2}); going on", fd, duty, e.toString());
        }
    }
}
