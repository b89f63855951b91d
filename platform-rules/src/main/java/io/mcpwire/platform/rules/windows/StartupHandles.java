package io.mcpwire.platform.rules.windows;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The handle values that the JVM's own {@code System.in}, {@code System.out} and {@code System.err}
 * captured at start-up ({@code FileDescriptor.in/out/err}), kept naming what descriptors 0 to 2
 * name. A Java child started with {@code Redirect.INHERIT} (or {@code inheritIO()}) gets exactly
 * these values, whatever they name at that moment ({@code ProcessImpl_md.c}); {@code _dup2} frees
 * them, and a freed value goes to whatever handle is made next. So after each move of a standard
 * descriptor the value is made to name that descriptor's file again: closed if this class holds
 * it, then taken back by duplicating the descriptor's handle until the allocator hands that value
 * out, within {@link #ATTEMPTS} tries.
 *
 * <p>Nothing promises the value back: Windows documents no reuse order (NT keeps free lists, one
 * per processor on Windows 8.1 and later, in last-in-first-out order as far as is known; Wine
 * reuses the lowest free value), and any thread of the process may allocate between the free and
 * the take-back. The caller makes it likely: the move and its take-back run on one thread pinned
 * to its processor, holding the JDK's child-start monitor ({@link WindowsPlatform#moveStandard}).
 * A value not taken back is logged and retried at every later follow, of any descriptor, the
 * release's included; one that another object took names that object until it is closed.
 *
 * <p>A value this class holds is its own: marked {@code HANDLE_FLAG_PROTECT_FROM_CLOSE}, so that
 * code closing {@code FileDescriptor.out} cannot free it for another handle to take, and closed
 * only while it still carries the mark.
 *
 * <p>The values are the standard-handle slots when first asked for this table, before any claim has
 * moved a descriptor: what the JVM read at start-up, unless native code changed the slots before.
 * What a follow has to say is returned, for the caller to log once it holds no monitor.
 *
 * <p>Threads: every method holds this object's monitor; it calls only the binding.
 */
final class StartupHandles {
    /** Tries at taking a freed value back; each is one {@code DuplicateHandle}. */
    static final int ATTEMPTS = 64;
    private static final String[] STREAMS = {"System.in", "System.out", "System.err"};

    /** By descriptor; 0 where the JVM got no handle. Null until first asked. */
    private long[] values;
    /** Values this class holds: taken back and protected from close, so closed and taken again when their descriptor moves. */
    private final Set<Long> held = new HashSet<>();
    /** Descriptors whose value is not taken back yet. */
    private final Set<Integer> missed = new TreeSet<>();

    /** Reads the values from the slots, once, before any descriptor moves. */
    synchronized void capture(Win32 w) {
        if (values == null) {
            values = new long[3];
            for (int fd = 0; fd < 3; fd++) {
                long slot = w.getStdHandle(WindowsPlatform.STD_SLOTS[fd]);
                values[fd] = slot == -1 ? 0 : slot;
            }
        }
    }

    /**
     * Makes the JVM's value for {@code fd} name what {@code fd} names now, then tries again each
     * value missed before. Never throws.
     *
     * @return what to log, in order (empty when all went well)
     */
    synchronized List<String> follow(Win32 w, int fd) {
        capture(w);
        List<String> notes = new ArrayList<>();
        followOne(w, fd, notes, true);
        for (int other : new ArrayList<>(missed)) {
            if (other != fd) {
                followOne(w, other, notes, false);
            }
        }
        return notes;
    }

    private void followOne(Win32 w, int fd, List<String> notes, boolean sayMisses) {
        long value = values[fd];
        long current = w.getOsfHandle(fd);
        if (value == 0 || current == -1 || current == -2 || value == current || names(w, value, current)) {
            missed.remove(fd);
            return; // the JVM holds nothing for it, fd has no handle to follow, or it names fd's file already
        }
        if (held.remove(value)) {
            int flags = w.handleFlags(value);
            if (flags >= 0 && (flags & Win32.HANDLE_FLAG_PROTECT_FROM_CLOSE) != 0) {
                w.setProtectFromClose(value, false);
                w.closeHandle(value);
            } // else: no longer ours (closed by someone while unprotected): never close what another holds
        }
        if (names(w, value, value)) {
            missed.add(fd);
            if (sayMisses && !sharedWithOtherStandard(w, fd, value)) {
                notes.add("fd " + fd + ": handle 0x" + Long.toHexString(value) + " that the JVM holds for " + STREAMS[fd]
                        + " names another object, which took the value while it was free; a child started with inheritIO() "
                        + "gets that object rather than fd " + fd + "'s file until it is closed (tried again at each later move)");
            }
            return;
        }
        String why = takeBack(w, value, current);
        if (why == null) {
            if (missed.remove(fd) && !sayMisses) {
                notes.add("fd " + fd + ": handle 0x" + Long.toHexString(value) + " that the JVM holds for " + STREAMS[fd]
                        + " was taken back at last and names fd " + fd + "'s file again");
            }
            return;
        }
        missed.add(fd);
        if (sayMisses) {
            notes.add("fd " + fd + ": handle 0x" + Long.toHexString(value) + " that the JVM holds for " + STREAMS[fd]
                    + " could not be made to name fd " + fd + "'s file (" + why + "); until a later move takes it back, a child "
                    + "started with inheritIO() gets whatever handle takes that value next, or none, and " + STREAMS[fd]
                    + ", where it is not swapped for the session, writes there");
        }
    }

    /**
     * Before a new handle is made on a standard descriptor's file (a private duplicate): each value
     * missed before is tried again, so that the duplicate cannot take a free start-up value, which
     * would then name the wire while claimed. Never throws.
     *
     * @return what to log
     */
    synchronized List<String> retryMissed(Win32 w) {
        capture(w);
        List<String> notes = new ArrayList<>();
        for (int fd : new ArrayList<>(missed)) {
            followOne(w, fd, notes, false);
        }
        return notes;
    }

    /** Whether {@code handle} is one of the JVM's start-up values. */
    synchronized boolean isStartupValue(long handle) {
        return values != null && handle != 0 && (values[0] == handle || values[1] == handle || values[2] == handle);
    }

    /** fd 1 and fd 2 on one handle value: closing one leaves it to the other, which moves next. */
    private boolean sharedWithOtherStandard(Win32 w, int fd, long value) {
        int other = fd == 1 ? 2 : fd == 2 ? 1 : -1;
        return other >= 0 && values[other] == value && w.getOsfHandle(other) == value;
    }

    /** Duplicates {@code current} until the allocator hands out {@code value}; null when it did, else why not. */
    private String takeBack(Win32 w, long value, long current) {
        List<Long> misses = new ArrayList<>();
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                long copy = w.duplicateHandle(current, false);
                if (copy == 0) {
                    return "DuplicateHandle failed: " + WindowsErrors.win32(w.lastError());
                }
                if (copy == value) {
                    held.add(value);
                    w.setProtectFromClose(value, true); // ours now: code closing FileDescriptor.out cannot free it
                    return null;
                }
                misses.add(copy);
            }
            return ATTEMPTS + " tries gave other values";
        } finally {
            for (long miss : misses) {
                w.closeHandle(miss);
            }
        }
    }

    private static boolean names(Win32 w, long a, long b) {
        return Boolean.TRUE.equals(w.compareObjectHandles(a, b));
    }
}
