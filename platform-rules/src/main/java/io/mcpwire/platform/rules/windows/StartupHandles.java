package io.mcpwire.platform.rules.windows;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The handle values that the JVM's own {@code System.in}, {@code System.out} and {@code System.err}
 * captured at start-up ({@code FileDescriptor.in/out/err}), kept naming what descriptors 0 to 2
 * name. A Java child started with {@code Redirect.INHERIT} (or {@code inheritIO()}) gets exactly
 * these values, whatever they name at that moment ({@code ProcessImpl_md.c}); {@code _dup2} frees
 * them, and a freed value comes back to whatever handle is made next, perhaps a private duplicate of
 * the wire. So after each move of a standard descriptor the value is made to name that descriptor's
 * file again: closed if this class holds it, then taken back by duplicating the descriptor's handle
 * until the allocator hands that value out, within {@link #ATTEMPTS} tries (Windows documents no
 * reuse order: NT keeps free lists, Wine reuses the lowest free value). Every outcome is checked by
 * value and by object ({@code CompareObjectHandles}); one that cannot be reached is logged with the
 * value and what a child gets instead, and never fails the move.
 *
 * <p>The values are the standard-handle slots when first asked, before any claim has moved a
 * descriptor: what the JVM read at start-up, unless native code changed the slots before.
 *
 * <p>Threads: every method holds this object's monitor; it calls only the binding.
 */
final class StartupHandles {
    /** Tries at taking a freed value back; each is one {@code DuplicateHandle}. */
    static final int ATTEMPTS = 64;
    private static final String[] STREAMS = {"System.in", "System.out", "System.err"};

    /** By descriptor; 0 where the JVM got no handle. Null until first asked. */
    private long[] values;
    /** Values this class holds: taken back, so closed and taken again when their descriptor moves. */
    private final Set<Long> held = new HashSet<>();

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

    /** Makes the JVM's value for {@code fd} name what {@code fd} names now, or logs why it cannot. Never throws. */
    synchronized void follow(Win32 w, int fd) {
        capture(w);
        long value = values[fd];
        long current = w.getOsfHandle(fd);
        if (value == 0 || current == -1 || current == -2 || value == current || names(w, value, current)) {
            return; // the JVM holds nothing for it, fd has no handle to follow, or it names fd's file already
        }
        if (held.remove(value)) {
            w.closeHandle(value);
        } else if (names(w, value, value)) {
            Level level = sharedWithOtherStandard(w, fd, value) ? Level.DEBUG : Level.WARNING;
            WindowsLog.LOG.log(level, "fd {0}: handle 0x{1} that the JVM holds for {2} is still open on another file, so "
                    + "a child started with inheritIO() gets that file rather than fd {0}''s", fd, Long.toHexString(value),
                    STREAMS[fd]);
            return;
        }
        takeBack(w, fd, value, current);
    }

    /** fd 1 and fd 2 on one handle value: closing one leaves it to the other, which moves next. */
    private boolean sharedWithOtherStandard(Win32 w, int fd, long value) {
        int other = fd == 1 ? 2 : fd == 2 ? 1 : -1;
        return other >= 0 && values[other] == value && w.getOsfHandle(other) == value;
    }

    /** Duplicates {@code current} until the allocator hands out {@code value}, which then names fd's file. */
    private void takeBack(Win32 w, int fd, long value, long current) {
        List<Long> misses = new ArrayList<>();
        String why = ATTEMPTS + " tries gave other values";
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                long copy = w.duplicateHandle(current, false);
                if (copy == 0) {
                    why = "DuplicateHandle failed: " + WindowsErrors.win32(w.lastError());
                    break;
                }
                if (copy == value) {
                    held.add(value);
                    return;
                }
                misses.add(copy);
            }
        } finally {
            for (long miss : misses) {
                w.closeHandle(miss);
            }
        }
        WindowsLog.LOG.log(Level.WARNING, "fd {0}: handle 0x{1} that the JVM holds for {2} could not be made to name fd {0}''s "
                + "file ({3}); a child started with inheritIO() gets a closed handle there, or whatever file is "
                + "opened on that value later, and {2}, where it is not swapped for the session, writes to nothing",
                fd, Long.toHexString(value), STREAMS[fd], why);
    }

    private static boolean names(Win32 w, long a, long b) {
        return Boolean.TRUE.equals(w.compareObjectHandles(a, b));
    }
}
