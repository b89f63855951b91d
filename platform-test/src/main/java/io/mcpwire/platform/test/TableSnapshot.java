package io.mcpwire.platform.test;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The descriptor table of a {@link FakeProcess} at one moment: each open descriptor with the file
 * it refers to and whether it is close-on-exec, the OS standard-handle slots, and on Windows what
 * the handles the JVM's own streams captured at start-up name. Two snapshots
 * are equal when the table is exactly as it was, so comparing one taken before a session with one
 * taken after shows any leaked, lost or moved descriptor.
 *
 * @param descriptors each open descriptor and what it refers to
 * @param stdHandles  the standard-handle slots 0..2 and what each refers to
 * @param jvmHandles  Windows: what the handle values that {@code System.in}, {@code System.out} and
 *                    {@code System.err} captured at start-up (0..2) name; empty on POSIX
 */
public record TableSnapshot(Map<Integer, String> descriptors, Map<Integer, String> stdHandles,
                            Map<Integer, String> jvmHandles) {

    /** Copies the maps. */
    public TableSnapshot {
        descriptors = Map.copyOf(Objects.requireNonNull(descriptors));
        stdHandles = Map.copyOf(Objects.requireNonNull(stdHandles));
        jvmHandles = Map.copyOf(Objects.requireNonNull(jvmHandles));
    }

    /** A snapshot of a table whose JVM streams follow the descriptors (POSIX). */
    public TableSnapshot(Map<Integer, String> descriptors, Map<Integer, String> stdHandles) {
        this(descriptors, stdHandles, Map.of());
    }

    /** Describes how {@code other} differs from this snapshot, or "" when equal. */
    public String differenceFrom(TableSnapshot other) {
        StringBuilder out = new StringBuilder();
        diff("fd", descriptors, other.descriptors, out);
        diff("std handle", stdHandles, other.stdHandles, out);
        diff("JVM start-up handle", jvmHandles, other.jvmHandles, out);
        return out.toString();
    }

    private static void diff(String what, Map<Integer, String> a, Map<Integer, String> b, StringBuilder out) {
        TreeMap<Integer, String> all = new TreeMap<>(a);
        b.forEach(all::putIfAbsent);
        for (Integer k : all.keySet()) {
            String x = a.getOrDefault(k, "closed");
            String y = b.getOrDefault(k, "closed");
            if (!x.equals(y)) {
                out.append(what).append(' ').append(k).append(": ").append(x).append(" -> ").append(y).append('\n');
            }
        }
    }

    @Override
    public String toString() {
        return "fds " + new TreeMap<>(descriptors) + ", std handles " + new TreeMap<>(stdHandles)
                + (jvmHandles.isEmpty() ? "" : ", JVM start-up handles " + new TreeMap<>(jvmHandles));
    }
}
