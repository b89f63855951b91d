package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import java.lang.System.Logger.Level;

/**
 * What a provider owes after every move of a standard descriptor (see {@code PlatformDescriptors},
 * "Duties"), asked in one place: the OS slot, the JVM's start-up handle value, and, for fd 0, a
 * read stranded on the wire, with the claim's private duplicate named. The last two are best
 * effort and always run; a failure of the first is thrown after them.
 */
final class MoveDuties {
    private MoveDuties() {
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
