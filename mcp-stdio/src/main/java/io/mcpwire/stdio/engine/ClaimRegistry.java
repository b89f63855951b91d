package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.stdio.ClaimRefusedException;
import java.util.HashMap;
import java.util.Map;

/**
 * The one authority on who owns each standard descriptor: a process-wide map from
 * (descriptor table, fd) to the owning claim and its description, guarded by a lock. Keyed by
 * table so that claims on fake tables in tests never meet claims on the real process.
 *
 * <p>Threads: any thread registers and deregisters. {@code OWNERS}' monitor guards the map and is
 * the innermost lock of the engine: it is taken under a claim's own monitor (a release
 * deregisters under it), and nothing runs under it but the map's own code; a refusal names its
 * holder by the description fixed when the holder registered, never by asking the holder, whose
 * monitor may be held by a thread waiting here.
 */
public final class ClaimRegistry {
    private static final Map<Key, Holder> OWNERS = new HashMap<>();

    /** Who owns a descriptor, as it described itself when it registered. */
    private record Holder(Object owner, String description) {
    }

    private record Key(DescriptorTable table, int fd) {
        // Written out, tables compared by identity: a record's own equals and hashCode are
        // bootstrapped at their first call, some 15 ms of every claim's start-up.
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.table == table && k.fd == fd;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(table) + fd;
        }
    }

    private ClaimRegistry() {
    }

    /**
     * Registers {@code owner} for {@code fd} of {@code table}, described as {@code description}
     * to a claim it refuses. {@code owner} must be whole: another thread may meet it at once.
     *
     * @throws ClaimRefusedException when another owner holds it; nothing changes
     */
    public static void register(DescriptorTable table, int fd, Object owner, String description) {
        Holder holder;
        synchronized (OWNERS) {
            holder = OWNERS.putIfAbsent(new Key(table, fd), new Holder(owner, description));
        }
        if (holder != null) {
            throw new ClaimRefusedException(fd, holder.description());
        }
    }

    /** Replaces how {@code owner}, which holds {@code fd}, is described, for example once its restore failed. */
    public static void redescribe(DescriptorTable table, int fd, Object owner, String description) {
        synchronized (OWNERS) {
            OWNERS.computeIfPresent(new Key(table, fd), (k, h) -> h.owner() == owner ? new Holder(owner, description) : h);
        }
    }

    /** Removes {@code owner}'s registration of {@code fd}, if it is the owner. */
    public static void deregister(DescriptorTable table, int fd, Object owner) {
        synchronized (OWNERS) {
            OWNERS.computeIfPresent(new Key(table, fd), (k, h) -> h.owner() == owner ? null : h);
        }
    }
}
