package io.mcpwire.stdio.claim;

import io.mcpwire.platform.DescriptorTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The descriptors one claim holds in the {@link ClaimRegistry} (rule 1): registered before any is
 * touched, deregistered once free again; one whose restore failed stays registered.
 */
final class Registrations {
    private final DescriptorTable table;
    private final Object owner;
    private final List<Integer> held = new ArrayList<>();

    Registrations(DescriptorTable table, Object owner) {
        this.table = table;
        this.owner = owner;
    }

    /**
     * Registers {@code fd}.
     *
     * @throws io.mcpwire.stdio.ClaimRefusedException when another claim holds it
     */
    void register(int fd) {
        ClaimRegistry.register(table, fd, owner);
        held.add(fd);
    }

    /** Deregisters each held descriptor that {@code free} says is free again. */
    void releaseWhere(IntPredicate free) {
        held.removeIf(fd -> {
            boolean f = free.test(fd);
            if (f) {
                ClaimRegistry.deregister(table, fd, owner);
            }
            return f;
        });
    }
}
