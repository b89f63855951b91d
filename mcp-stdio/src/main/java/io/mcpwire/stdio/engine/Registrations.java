package io.mcpwire.stdio.engine;

import io.mcpwire.stdio.ClaimState;
import io.mcpwire.platform.DescriptorTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The descriptors one claim holds in the {@link ClaimRegistry} (one owner): registered before any is
 * touched, deregistered once free again; one whose restore failed stays registered, described so.
 * The registry's owner is this object, whole before it registers anything, so that no claim is met
 * by another thread before its constructor has finished. Threads: its claim's, one at a time.
 */
final class Registrations {
    private final DescriptorTable table;
    private final String description;
    private final List<Integer> held = new ArrayList<>();

    /** For a claim on {@code platformName} taken now, by the calling thread. */
    Registrations(DescriptorTable table, String platformName) {
        this.table = table;
        this.description = "StdioClaim[" + platformName + "] taken by thread " + Thread.currentThread().getName();
    }

    /**
     * Registers {@code fd}.
     *
     * @throws io.mcpwire.stdio.ClaimRefusedException when another claim holds it
     */
    void register(int fd) {
        ClaimRegistry.register(table, fd, this, description);
        held.add(fd);
    }

    /** Says to later claims why {@code fd} is still held: its restore failed, or it is kept diverted on purpose. */
    void markHeld(int fd, ClaimState state) {
        String why = state == ClaimState.KEPT_DIVERTED ? ", which keeps fd " + fd + " diverted (KEPT_DIVERTED"
                : ", whose restore of fd " + fd + " failed (STUCK";
        ClaimRegistry.redescribe(table, fd, this, description + why + "; closing it again retries)");
    }

    /** Deregisters each held descriptor that {@code free} says is free again. */
    void releaseWhere(IntPredicate free) {
        held.removeIf(fd -> {
            boolean f = free.test(fd);
            if (f) {
                ClaimRegistry.deregister(table, fd, this);
            }
            return f;
        });
    }
}
