package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;
import java.util.ArrayList;
import java.util.List;

/** Private duplicates of fd 0 to 2 that never take a start-up value the JVM holds. */
final class StartupDuplicates {
    private StartupDuplicates() {
    }

    /**
     * A duplicate of fd 0 to 2 that holds no start-up value: the values missed before are taken back
     * first, and a duplicate that lands on one all the same (it was free) is set aside while another
     * is made, so that the JVM's value never names the wire while claimed.
     */
    static int notOnAStartupValue(TableState state, Win32 w, int fd, String op) throws DescriptorException {
        state.startupHandles.retryMissed(w).forEach(n -> WindowsLog.LOG.log(System.Logger.Level.DEBUG, n));
        List<Integer> aside = new ArrayList<>();
        try {
            int dup = CrtCalls.dupUninherited(w, fd, op);
            while (dup > WindowsPlatform.STDERR && state.startupHandles.isStartupValue(w.getOsfHandle(dup)) && aside.size() < 3) {
                aside.add(dup);
                dup = CrtCalls.dupUninherited(w, fd, op);
            }
            return dup;
        } finally {
            aside.forEach(w::close);
        }
    }
}
