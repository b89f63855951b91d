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

    /** Which move a step makes. */
    private enum Kind { DIVERT, PUT_BACK, DUTIES_ALONE }

    /**
     * One move and its duties, as the step the duties' {@code moveStandard} runs: a class of its
     * own rather than a lambda, which would cost a generated class on the first claim of every
     * start. Holds whether it started and its first failure.
     */
    private final class Step implements StandardHandleDuties.StandardMove {
        private final Kind kind;
        private final int fd;
        private final int d;
        private final int privateFd;
        private final String when;
        boolean started;
        DescriptorException failure;

        Step(Kind kind, int fd, int d, int privateFd, String when) {
            this.kind = kind;
            this.fd = fd;
            this.d = d;
            this.privateFd = privateFd;
            this.when = when;
        }

        @Override
        public void run() {
            started = true;
            failure = switch (kind) {
                case DIVERT -> divertNow(fd, d, privateFd);
                case PUT_BACK -> putBackNow(fd, privateFd, when);
                case DUTIES_ALONE -> dutiesNow(fd, privateFd);
            };
        }
    }

    /**
     * {@code dup2(d, fd)}, close D, the duties, as one step; the first failure, or null. A diversion
     * that landed on fd itself (fd was closed, and D took the lowest free descriptor) is only
     * rebound. When the step could not even start, D is closed here.
     */
    DescriptorException divert(int fd, int d, int privateFd) {
        Step step = new Step(Kind.DIVERT, fd, d, privateFd, "");
        DescriptorException failure = asOneStep(step);
        if (!step.started && d != fd) {
            DescriptorException closing = close(fd, d);
            if (closing != null) {
                LOG.log(Level.DEBUG, "fd {0}: closing the unused diversion fd {1} failed ({2})", fd, d, closing.getMessage());
            }
        }
        return failure;
    }

    private DescriptorException divertNow(int fd, int d, int privateFd) {
        DescriptorException first = null;
        if (d != fd) {
            first = duplicateOnto(fd, d);
            DescriptorException closing = close(fd, d);
            first = first != null ? first : closing;
        }
        if (first == null) {
            try {
                afterMove(fd, privateFd);
            } catch (DescriptorException e) {
                first = e;
            }
        }
        return first;
    }

    /**
     * {@code dup2(P, fd)} and the duties (best effort, logged {@code when}), as one step; null when fd
     * is back on the wire, else the failure, with P still holding the wire.
     */
    DescriptorException putBack(int fd, int privateFd, String when) {
        return asOneStep(new Step(Kind.PUT_BACK, fd, -1, privateFd, when));
    }

    private DescriptorException putBackNow(int fd, int privateFd, String when) {
        DescriptorException failed = duplicateOnto(fd, privateFd);
        if (failed != null) {
            return failed;
        }
        try {
            afterMove(fd, privateFd);
        } catch (DescriptorException e) {
            LOG.log(Level.WARNING, "fd {0}: rebinding the standard handle {1} failed ({2})", fd, when, e.getMessage());
        }
        return null;
    }

    /** The duties alone, as one step (fd already moved: rolled forward onto the diversion). */
    DescriptorException dutiesAlone(int fd, int privateFd) {
        return asOneStep(new Step(Kind.DUTIES_ALONE, fd, -1, privateFd, ""));
    }

    private DescriptorException dutiesNow(int fd, int privateFd) {
        try {
            afterMove(fd, privateFd);
            return null;
        } catch (DescriptorException e) {
            return e;
        }
    }

    /** Runs {@code step} through the duties' {@code moveStandard}; a step it gave up on, or never ran, is a failure. */
    private DescriptorException asOneStep(Step step) {
        int fd = step.fd;
        try {
            duties.moveStandard(fd, step);
        } catch (DescriptorException e) {
            return e; // not run, or given up on: whether fd moved is not known, so it is a failure
        } catch (RuntimeException e) {
            return GuardedCalls.threw(fd, "moveStandard(" + fd + ")", e);
        }
        if (!step.started) {
            // A provider that returned without running the move: nothing moved, so nothing may be counted as moved.
            return new DescriptorException("moveStandard(" + fd + ")", fd, 0, "the provider returned without running the move");
        }
        return step.failure;
    }

    /** {@code dup2(source, fd)}; the failure, or null. */
    private DescriptorException duplicateOnto(int fd, int source) {
        try {
            platform.duplicateOnto(source, fd);
            return null;
        } catch (DescriptorException e) {
            return e;
        } catch (RuntimeException e) {
            return GuardedCalls.threw(fd, "dup2(" + source + ", " + fd + ")", e);
        }
    }

    /** {@code close(d)} of a descriptor moved onto {@code fd}; the failure, or null. */
    private DescriptorException close(int fd, int d) {
        try {
            platform.close(d);
            return null;
        } catch (DescriptorException e) {
            return e;
        } catch (RuntimeException e) {
            return GuardedCalls.threw(fd, "close(" + d + ")", e);
        }
    }

    /**
     * The duties after {@code fd} moved, its private duplicate being {@code privateFd} (-1 for none).
     *
     * @throws DescriptorException when the slot could not be set
     */
    private void afterMove(int fd, int privateFd) throws DescriptorException {
        DescriptorException slot = null;
        try {
            duties.rebindStandardHandle(fd);
        } catch (DescriptorException e) {
            slot = e;
        } catch (RuntimeException e) {
            slot = GuardedCalls.threw(fd, "rebindStandardHandle(" + fd + ")", e);
        }
        try {
            duties.followStartupHandle(fd);
        } catch (RuntimeException e) {
            bestEffortFailed(fd, "followStartupHandle", e);
        }
        if (fd == PlatformDescriptors.STDIN) {
            try {
                duties.cancelStrandedReads(fd, privateFd);
            } catch (RuntimeException e) {
                bestEffortFailed(fd, "cancelStrandedReads", e);
            }
        }
        if (slot != null) {
            throw slot;
        }
    }

    /** A best-effort duty whose faulty provider threw: logged, and it goes no further. */
    private static void bestEffortFailed(int fd, String duty, RuntimeException e) {
        LOG.log(Level.WARNING, "fd {0}: the provider''s {1} threw ({2}); going on", fd, duty, e.toString());
    }
}
