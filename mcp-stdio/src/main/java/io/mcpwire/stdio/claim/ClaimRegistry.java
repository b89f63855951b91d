package io.mcpwire.stdio.claim;

import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.stdio.ClaimRefusedException;
import java.util.HashMap;
import java.util.Map;

/**
 * The one authority on who owns each standard descriptor: a process-wide map from
 * (descriptor table, fd) to the owning claim, guarded by a lock. Keyed by table so that claims on
 * fake tables in tests never meet claims on the real process.
 */
public final class ClaimRegistry {
    private static final Map<Key, Object> OWNERS = new HashMap<>();

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
     * Registers {@code owner} for {@code fd} of {@code table}.
     *
     * @throws ClaimRefusedException when another owner holds it; nothing changes
     */
    public static void register(DescriptorTable table, int fd, Object owner) {
        synchronized (OWNERS) {
            Object holder = OWNERS.putIfAbsent(new Key(table, fd), owner);
            if (holder != null) {
                throw new ClaimRefusedException(fd, holder.toString());
            }
        }
    }

    /** Removes {@code owner}'s registration of {@code fd}, if it is the owner. */
    public static void deregister(DescriptorTable table, int fd, Object owner) {
        synchronized (OWNERS) {
            OWNERS.remove(new Key(table, fd), owner);
        }
    }
}
