package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorTable;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What the Windows rules keep per descriptor table rather than per provider instance: the JVM's
 * start-up handle values (captured once, whichever provider first asks: a second instance, or the
 * FFM provider after the JNA one, must not capture the slots as the first release left them), the
 * streams' pending I/O, the lanes of the calls that can wait, and the job that ties the process'
 * children to it. {@link DescriptorTable#PROCESS}
 * has one for the process; a model's table, its own. Kept while the table is reachable.
 */
final class TableState {
    private static final Map<DescriptorTable, TableState> STATES = new WeakHashMap<>();

    final StartupHandles startupHandles = new StartupHandles();
    final PendingIo pendingIo = new PendingIo();
    final ChildrenJob childrenJob = new ChildrenJob();
    final Lanes lanes;

    private TableState(Patience patience) {
        this.lanes = new Lanes(patience);
    }

    /** The state of {@code table}; the first provider to ask gives the patience. */
    static synchronized TableState of(DescriptorTable table, Patience patience) {
        TableState state = STATES.get(table);
        if (state == null) {
            state = new TableState(patience);
            STATES.put(table, state);
        }
        return state;
    }
}
