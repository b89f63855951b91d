package io.mcpwire.platform.test;

import java.util.ArrayList;
import java.util.List;

/**
 * What differs between the Windows releases that ship, for the fake's Windows model
 * ({@link FakeProcess.Builder#windows(WindowsVariant)}). Each component is a fact of one release's C
 * runtime or kernel, named by the source that states it.
 *
 * @param dup2Order   the order of the Universal C Runtime's {@code _dup2} ({@code lowio/dup2.cpp})
 * @param appType     whether the program is a console or a GUI program, which decides whether the
 *                    C runtime keeps the standard-handle slots in step with descriptors 0 to 2
 * @param sharedStdoutStderr whether the parent gave fd 1 and fd 2 one handle value, as the JDK's own
 *                    {@code redirectErrorStream(true)} does; only meaningful when fd 2 is the wire
 * @param handleReuse the order in which closed handle values come back
 */
public record WindowsVariant(Dup2Order dup2Order, AppType appType, boolean sharedStdoutStderr, HandleReuse handleReuse) {

    /** The order of {@code _dup2}'s two steps. */
    public enum Dup2Order {
        /**
         * Closes the target's handle, then duplicates the source onto it: the Universal C Runtime up
         * to SDK 10.0.20348 (Windows 10, Windows Server 2022). A duplicate that fails then has
         * destroyed the target.
         */
        CLOSE_FIRST,
        /**
         * Duplicates the source, then closes the target's handle: 10.0.22000 and later (Windows 11,
         * Windows Server 2025). A failed {@code _dup2} has changed nothing; the target's old handle
         * value is freed only after the new one was taken.
         */
        DUPLICATE_FIRST
    }

    /** The program's subsystem, as {@code _query_app_type()} reports it. */
    public enum AppType {
        /**
         * A console program ({@code java.exe}): {@code __acrt_lowio_set_os_handle} calls
         * {@code SetStdHandle} whenever a handle lands on fd 0 to 2, and {@code _free_osfhnd} empties
         * the slot when such a descriptor closes ({@code lowio/osfinfo.cpp}).
         */
        CONSOLE,
        /** A GUI program ({@code javaw.exe}): the slots are values nothing but {@code SetStdHandle} changes. */
        GUI
    }

    /** Which closed handle value a new handle takes; Windows does not document it. */
    public enum HandleReuse {
        /** The lowest free value, as Wine does. */
        LOWEST_FIRST,
        /** The value closed last, as a free list kept as a stack gives. */
        MOST_RECENT_FIRST,
        /** The value closed longest ago, as a free list kept as a queue gives. */
        LEAST_RECENT_FIRST,
        /**
         * A last-in-first-out free list per processor, as the handle table's {@code FreeLists[]} of
         * Windows 8.1 and later suggest (one per processor, each on a cache line of its own; the
         * selection by processor is inferred, not documented): a value freed by a thread on one
         * processor comes back to the next handle made on that processor, and to another
         * processor's only once its own list is empty.
         */
        PER_CPU_LIFO
    }

    /**
     * The model as Wine 8.0's {@code ucrtbase} behaves: duplicate first, a console program, lowest
     * value first. Wine keeps the slots in step for a GUI program too, which Windows does not, so a
     * comparison with Wine holds for the console variant only.
     */
    public static final WindowsVariant WINE = new WindowsVariant(Dup2Order.DUPLICATE_FIRST, AppType.CONSOLE, false,
            HandleReuse.LOWEST_FIRST);

    /** The default: {@code java.exe} on Windows 11, with handle values reused lowest first. */
    public static final WindowsVariant DEFAULT = WINE;

    /**
     * Every combination that ships: both {@code _dup2} orders, both program types, every reuse
     * order, and, when {@code stderrIsStdout} (fd 2 opened on the same pipe as fd 1), both a
     * shared handle value and two.
     */
    public static List<WindowsVariant> shipped(boolean stderrIsStdout) {
        List<WindowsVariant> out = new ArrayList<>();
        for (Dup2Order order : Dup2Order.values()) {
            for (AppType type : AppType.values()) {
                for (boolean shared : stderrIsStdout ? new boolean[] {false, true} : new boolean[] {false}) {
                    for (HandleReuse reuse : HandleReuse.values()) {
                        out.add(new WindowsVariant(order, type, shared, reuse));
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * Four of the {@link #shipped} variants that between them take every value of every component,
     * and every pairing of {@code _dup2} order and program type: one per reuse order. A sample for a
     * second run of a matrix whose full run is made elsewhere.
     */
    public static List<WindowsVariant> covering(boolean stderrIsStdout) {
        List<WindowsVariant> out = new ArrayList<>();
        HandleReuse[] reuses = HandleReuse.values();
        for (int i = 0; i < reuses.length; i++) {
            Dup2Order order = Dup2Order.values()[i % 2];
            AppType type = AppType.values()[(i / 2) % 2];
            boolean shared = stderrIsStdout && (i % 2) != (i / 2) % 2;
            out.add(new WindowsVariant(order, type, shared, reuses[i]));
        }
        return List.copyOf(out);
    }

    /** This variant with fd 1 and fd 2 on one handle value at start, or on two. */
    public WindowsVariant withSharedStdoutStderr(boolean shared) {
        return new WindowsVariant(dup2Order, appType, shared, handleReuse);
    }

    /** A short name, for example {@code duplicate-first,console,lowest-first} (and {@code ,shared}). */
    @Override
    public String toString() {
        return kebab(dup2Order) + "," + kebab(appType) + "," + kebab(handleReuse) + (sharedStdoutStderr ? ",shared" : "");
    }

    private static String kebab(Enum<?> e) {
        return e.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
