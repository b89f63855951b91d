package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import java.util.OptionalLong;

/**
 * Windows' wait for other processes' exits: a {@code SYNCHRONIZE} handle of each process, signalled
 * once it has exited, and a manual-reset event that {@link Wait#wake()} sets, waited on together
 * with {@code WaitForMultipleObjects}. No handle is inheritable.
 */
final class WindowsExits implements ProcessExits {
    /** What {@code OpenProcess} says of an id no process has: the process has gone. */
    private static final int ERROR_INVALID_PARAMETER = 87;
    /** {@code WaitForMultipleObjects}' limit, the event included. */
    private static final int MAXIMUM_WAIT_OBJECTS = 64;

    private final Win32 w;

    WindowsExits(Win32 w) {
        this.w = w;
    }

    @Override
    public Wait watch(long... pids) throws DescriptorException {
        if (!w.waitsForProcesses()) {
            throw new DescriptorException("OpenProcess(SYNCHRONIZE)", -1, 50, "ERROR_NOT_SUPPORTED (this binding does not wait for processes)");
        }
        if (pids.length + 1 > MAXIMUM_WAIT_OBJECTS) {
            throw new DescriptorException("WaitForMultipleObjects", -1, 87, "ERROR_INVALID_PARAMETER (" + pids.length
                    + " processes; at most " + (MAXIMUM_WAIT_OBJECTS - 1) + " are waited for at once)");
        }
        long event = w.createWakeEvent();
        if (event == 0) {
            throw WindowsPlatform.win32Error(w, "CreateEventW(NULL, TRUE, FALSE, NULL)", -1);
        }
        long[] handles = new long[pids.length + 1]; // the event first, then each process (0 for one gone)
        handles[0] = event;
        boolean made = false;
        try {
            for (int i = 0; i < pids.length; i++) {
                long h = w.openProcessToWait(pids[i]);
                if (h == 0 && w.lastError() != ERROR_INVALID_PARAMETER) {
                    throw WindowsPlatform.win32Error(w, "OpenProcess(SYNCHRONIZE, FALSE, " + pids[i] + ")", -1);
                }
                handles[i + 1] = h;
            }
            HandleWait wait = new HandleWait(pids.clone(), handles);
            made = true;
            return wait;
        } finally {
            if (!made) { // whatever failed, nothing is left open
                closeAll(handles);
            }
        }
    }

    private void closeAll(long[] handles) {
        for (long h : handles) {
            if (h != 0) {
                w.closeHandle(h);
            }
        }
    }

    /** One wait: the event and the processes' handles, in that order. */
    private final class HandleWait implements Wait {
        private final long[] pids;
        private final long[] handles;
        private boolean woken;
        private boolean closed;

        HandleWait(long[] pids, long[] handles) {
            this.pids = pids;
            this.handles = handles;
        }

        @Override
        public OptionalLong await() throws DescriptorException {
            for (int i = 0; i < pids.length; i++) {
                if (handles[i + 1] == 0) {
                    return OptionalLong.of(pids[i]); // gone before the wait opened
                }
            }
            int signalled = w.waitForAny(handles);
            if (signalled < 0 || signalled >= handles.length) {
                throw WindowsPlatform.win32Error(w, "WaitForMultipleObjects(" + handles.length + ", ..., FALSE, INFINITE)", -1);
            }
            return signalled == 0 ? OptionalLong.empty() : OptionalLong.of(pids[signalled - 1]);
        }

        @Override
        public synchronized void wake() {
            if (woken || closed) {
                return;
            }
            woken = true;
            w.setEvent(handles[0]);
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            closeAll(handles);
        }
    }
}
