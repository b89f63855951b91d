package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import java.lang.System.Logger.Level;

/**
 * A claim's private duplicate P (rule 3 of docs/claim.md), as the claim holds it: made once, then
 * given up once, by closing it or by leaving it open for good to a thread that may still be
 * blocked on it. Its number is handed out only while it is held, so a number the claim closed is
 * never used or closed again (the OS may have given it to another file by then); asking after it
 * was given up is a fault in the claim's own moves, and throws. Touched by the claim's owner alone.
 */
final class PrivateDuplicate {
    /** Held, or how it was given up. */
    private enum Hold { HELD, CLOSED, LEFT_OPEN }

    private final int claimed;
    private final int number;
    private Hold hold = Hold.HELD;

    /** P, the duplicate {@code number} of standard descriptor {@code claimed}, just made. */
    PrivateDuplicate(int claimed, int number) {
        this.claimed = claimed;
        this.number = number;
    }

    /**
     * Its number, while held.
     *
     * @throws IllegalStateException once it was closed or left open
     */
    int number() {
        if (hold != Hold.HELD) {
            throw new IllegalStateException("fd " + claimed + ": private fd " + number + " was " + hold
                    + "; its number is no longer the claim's");
        }
        return number;
    }

    /**
     * Closes it, once; a failure (a provider's unchecked throw included) is logged, not retried:
     * after a failed {@code close} the number's state is unknown, and closing it again could close
     * another file.
     *
     * @param what what it is at this point, for the log
     */
    void close(PlatformDescriptors platform, String what) {
        int p = number();
        hold = Hold.CLOSED;
        DescriptorException failed;
        try {
            platform.close(p);
            return;
        } catch (DescriptorException e) {
            failed = e;
        } catch (RuntimeException e) {
            failed = GuardedCalls.threw(claimed, "close(" + p + ")", e);
        }
        LOG.log(Level.WARNING, "closing {0} (fd {1}) reported an error ({2}); not retried", what, p, failed.getMessage());
    }

    /** Gives it up without closing it: a thread may still be blocked on it, and a closed number is recycled. */
    void leaveOpen() {
        int p = number();
        hold = Hold.LEFT_OPEN;
        LOG.log(Level.WARNING, "fd {0}: a thread may still be blocked on private fd {1}; "
                + "leaving it open rather than recycling it under that thread", claimed, p);
    }
}
