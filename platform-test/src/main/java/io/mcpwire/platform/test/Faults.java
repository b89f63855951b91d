package io.mcpwire.platform.test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/** The scripted failures of one {@link FakeProcess}; see {@link FaultRule}. */
public final class Faults {
    private final Lock lock;
    private final List<FaultRule> rules = new ArrayList<>();

    Faults(Lock lock) {
        this.lock = lock;
    }

    /** Adds a rule that fails calls of {@code op}. */
    public FaultRule on(Op op) {
        return add(new FaultRule(op, 0));
    }

    /** Adds a rule that fails the {@code index}-th platform call (from 1), whatever it is. */
    public FaultRule onCall(int index) {
        if (index < 1) {
            throw new IllegalArgumentException("index < 1");
        }
        return add(new FaultRule(null, index));
    }

    /** Removes every rule. */
    public void clear() {
        lock.lock();
        try {
            rules.clear();
        } finally {
            lock.unlock();
        }
    }

    private FaultRule add(FaultRule rule) {
        lock.lock();
        try {
            rules.add(rule);
        } finally {
            lock.unlock();
        }
        return rule;
    }

    /** The first rule that fires for this call, or null; every rule sees every call. */
    FaultRule match(Call call) {
        FaultRule hit = null;
        for (FaultRule r : rules) {
            if (r.fires(call) && hit == null) {
                hit = r;
            }
        }
        return hit;
    }
}
