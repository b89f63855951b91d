package io.mcpwire.platform.test;

import java.util.function.Predicate;

/**
 * One scripted failure: which calls it matches, which of those it fails, and how. Built from
 * {@link Faults}; by default it fails the first matching call, once, with {@code EIO}.
 *
 * <pre>{@code
 * faults.on(Op.DUP2).where(c -> c.fd() == 0).nth(2);         // the second dup2 onto fd 0
 * faults.on(Op.CLOSE).always();                               // every close
 * faults.on(Op.DUP2).destroyingTarget();                      // closes its target, then fails
 * faults.onCall(7);                                           // the 7th platform call, whatever it is
 * }</pre>
 */
public final class FaultRule {
    private final Op op;
    private final int callIndex;
    private Predicate<Call> where = c -> true;
    private int nth = 1;
    private int times = 1;
    private boolean destroyTarget;
    private int errno = FakeErrors.EIO;
    private String errorText = "EIO (Input/output error, scripted)";
    private int matched;
    private int fired;

    FaultRule(Op op, int callIndex) {
        this.op = op;
        this.callIndex = callIndex;
    }

    /** Matches only calls whose arguments pass {@code predicate}. */
    public FaultRule where(Predicate<Call> predicate) {
        this.where = predicate;
        return this;
    }

    /** Fails from the {@code n}-th matching call on (1 = the first). */
    public FaultRule nth(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n < 1");
        }
        this.nth = n;
        return this;
    }

    /** Fails {@code n} matching calls in a row, then no more. */
    public FaultRule times(int n) {
        this.times = n;
        return this;
    }

    /** Fails once (the default). */
    public FaultRule once() {
        return times(1);
    }

    /** Fails every matching call from the {@link #nth} on. */
    public FaultRule always() {
        return times(Integer.MAX_VALUE);
    }

    /**
     * For {@code dup2}: closes the target and then fails, as the Windows C runtime's
     * {@code _dup2} can. No effect on other operations.
     */
    public FaultRule destroyingTarget() {
        this.destroyTarget = true;
        return this;
    }

    /** The OS error the failure reports. */
    public FaultRule errno(int code, String text) {
        this.errno = code;
        this.errorText = text;
        return this;
    }

    /** How many calls this rule has failed so far. */
    public int fired() {
        return fired;
    }

    boolean destroysTarget() {
        return destroyTarget;
    }

    int errnoCode() {
        return errno;
    }

    String errorText() {
        return errorText;
    }

    /** Counts the call if it matches and says whether to fail it. */
    boolean fires(Call call) {
        boolean matches = callIndex > 0 ? call.index() == callIndex : call.op() == op && where.test(call);
        if (!matches) {
            return false;
        }
        matched++;
        if (matched < nth || fired >= times) {
            return false;
        }
        fired++;
        return true;
    }

    @Override
    public String toString() {
        return (callIndex > 0 ? "call #" + callIndex : op.toString())
                + (destroyTarget ? " (destroying target)" : "");
    }
}
