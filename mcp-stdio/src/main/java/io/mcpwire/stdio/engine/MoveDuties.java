package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardHandleDuties;
import java.lang.System.Logger.Level;

/**
 * The moves of a standard descriptor and what a provider owes after each, in one place. Where the
 * provider offers {@link StandardHandleDuties}, each move and its duties run as one step through
 * it ({@link StandardHandleDuties#moveStandard}: on Windows, on one processor, with no Java child
 * starting meanwhile, and given up on when it waits too long); the duties are the OS slot, the JVM's
 * start-up handle value, and, for fd 0, a read stranded on the wire, with the claim's private
 * duplicate named. The last two are best effort and always run; a failure of the first is thrown
 * after them. Where the JVM's streams are the descriptors themselves, a move is its calls alone.
 */
final class MoveDuties {
    /** No duty after a move; the step runs on the calling thread. */
    private static class NoDuties implements StandardHandleDuties {
        @Override
        public void rebindStandardHandle(int fd) {
        }

        @Override
        public void followStartupHandle(int fd) {
        }

        @Override
        public void cancelStrandedReads(int fd, int privateFd) {
        }
    }

    /** Where a move owes nothing after it: the JVM's streams are the descriptors themselves. */
    private static final StandardHandleDuties NONE = new NoDuties();

    private final PlatformDescriptors platform;
    private final StandardHandleDuties duties;

    /**
     * The moves through {@code platform}, with the duties it offers. A provider whose answer throws
     * cannot say what a move owes: every move through it fails before it starts, so that the
     * stream is served in place rather than moved without its duties.
     */
    MoveDuties(PlatformDescriptors platform) {
        this.platform = platform;
        StandardHandleDuties offered;
        try {
            offered = platform.standardHandleDuties().orElse(NONE);
        } catch (RuntimeException e) {
            offered = new Unknown("the provider's standardHandleDuties() threw " + e);
        }
        this.duties = offered;
    }

    /** Duties that could not be learnt: each move is refused before it starts, naming why. */
    private static final class Unknown extends NoDuties {
        private final String why;

        Unknown(String why) {
            this.why = why;
        }

        @Override
        public void moveStandard(int fd, StandardMove move) throws DescriptorException {
            throw new DescriptorException("moveStandard(" + fd + ")", fd, 0, why);
        }
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
    DescriptorException divert(int fd, int d, int privateFd) {
        boolean[] started = {false};
        DescriptorException failure = asOneStep(fd, started, () -> {
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
                    afterMove(fd, privateFd);
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
    DescriptorException putBack(int fd, int privateFd, String when) {
        return asOneStep(fd, new boolean[1], () -> {
            try {
                GuardedCalls.guarded(fd, "dup2(" + privateFd + ", " + fd + ")", () -> platform.duplicateOnto(privateFd, fd));
            } catch (DescriptorException e) {
                return e;
            }
            try {
                afterMove(fd, privateFd);
            } catch (DescriptorException e) {
                LOG.log(Level.WARNING, "fd {0}: rebinding the standard handle {1} failed ({2})", fd, when, e.getMessage());
            }
            return null;
        });
    }

    /** The duties alone, as one step (fd already moved: rolled forward onto the diversion). */
    DescriptorException dutiesAlone(int fd, int privateFd) {
        return asOneStep(fd, new boolean[1], () -> {
            try {
                afterMove(fd, privateFd);
                return null;
            } catch (DescriptorException e) {
                return e;
            }
        });
    }

    /** Runs {@code step} through the duties' {@code moveStandard}; a step it gave up on, or never ran, is a failure. */
    private DescriptorException asOneStep(int fd, boolean[] started, Step step) {
        DescriptorException[] outcome = {null};
        try {
            GuardedCalls.guarded(fd, "moveStandard(" + fd + ")", () -> duties.moveStandard(fd, () -> {
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
    private void afterMove(int fd, int privateFd) throws DescriptorException {
        DescriptorException slot = null;
        try {
            GuardedCalls.guarded(fd, "rebindStandardHandle(" + fd + ")", () -> duties.rebindStandardHandle(fd));
        } catch (DescriptorException e) {
            slot = e;
        }
        bestEffort(fd, "followStartupHandle", () -> duties.followStartupHandle(fd));
        if (fd == PlatformDescriptors.STDIN) {
            bestEffort(fd, "cancelStrandedReads", () -> duties.cancelStrandedReads(fd, privateFd));
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
