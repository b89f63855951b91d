package io.mcpwire.platform.rules.windows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * How a call of the scripted binding is made: logged in order with the thread that made it, then
 * what a test set to run inside it is run, a held call waits ({@link #hold}), and the answer comes
 * from the script ({@link #answer}, {@link #fails}: the scripted value and error, nothing changed)
 * or else from the binding's table. The answer leaves {@code errno} (C runtime calls, named with
 * a leading underscore) or {@code GetLastError()} (Win32 calls) for the calling thread alone.
 *
 * <p>Threads: the log, the script and the subclasses' table are this object's monitor's; a held
 * call waits without it.
 */
abstract class ScriptedCalls {
    /** Calls that only look: {@link #actions} leaves them out. */
    private static final Set<String> LOOKS = Set.of("_get_osfhandle", "GetStdHandle", "CompareObjectHandles", "GetHandleInformation");
    /** The value each call gives when it fails. */
    private static final Map<String, Long> FAILED = Map.ofEntries(
            Map.entry("_get_osfhandle", -1L), Map.entry("_open_osfhandle", -1L), Map.entry("_dup", -1L), Map.entry("_pipe", -1L),
            Map.entry("_dup2", -1L), Map.entry("_open", -1L), Map.entry("_wopen", -1L), Map.entry("_close", -1L),
            Map.entry("DuplicateHandle", 0L), Map.entry("SetHandleInformation", 0L), Map.entry("GetHandleInformation", -1L),
            Map.entry("CancelIoEx", 0L), Map.entry("CloseHandle", 0L), Map.entry("GetStdHandle", -1L), Map.entry("SetStdHandle", 0L),
            Map.entry("GetFileType", 0L), Map.entry("GetConsoleMode", 0L), Map.entry("GetFileInformationByHandle", 0L),
            Map.entry("ReadFile", -1L), Map.entry("WriteFile", -1L), Map.entry("OpenThread", 0L),
            Map.entry("CancelSynchronousIo", 0L), Map.entry("SetThreadAffinityMask", 0L), Map.entry("CreateJobObjectW", 0L),
            Map.entry("SetInformationJobObject", 0L), Map.entry("AssignProcessToJobObject", 0L), Map.entry("OpenProcess", 0L),
            Map.entry("CreateEventW", 0L), Map.entry("SetEvent", 0L), Map.entry("WaitForMultipleObjects", 0xFFFFFFFFL));

    /** What a call gives and the error it leaves. */
    record Answer(long value, int error) {
        static Answer ok(long value) {
            return new Answer(value, 0);
        }

        /** {@code call}'s failure value, with {@code error}. */
        static Answer failed(String call, int error) {
            return new Answer(FAILED.get(call), error);
        }
    }

    /** One scripted answer, for the {@code nth} call from now that is {@code call} or named so. */
    private static final class Scripted {
        final String call;
        final long value;
        final int error;
        int nth;

        Scripted(String call, int nth, long value, int error) {
            this.call = call;
            this.nth = nth;
            this.value = value;
            this.error = error;
        }
    }

    private final List<String> calls = new ArrayList<>();
    private final List<String> callThreads = new ArrayList<>();
    private final List<Scripted> script = new ArrayList<>();
    private final List<Hold> holds = new ArrayList<>();
    private final Map<String, Runnable> during = new HashMap<>();
    private final Map<Thread, Hold> heldNow = new HashMap<>();
    private final ThreadLocal<int[]> errors = ThreadLocal.withInitial(() -> new int[2]); // errno, GetLastError()

    // ------------------------------------------------------------------ the script

    /** The next call that is {@code call} (or, given a bare name, any call of it) gives {@code value} and leaves {@code error}. */
    final synchronized void answer(String call, long value, int error) {
        script.add(new Scripted(call, 1, value, error));
    }

    /** The next call that is {@code call}, or named so, fails with {@code error}. */
    final void fails(String call, int error) {
        failsAt(call, 1, error);
    }

    /** The {@code nth} call from now that is {@code call}, or named so, fails with {@code error}. */
    final synchronized void failsAt(String call, int nth, int error) {
        Long value = FAILED.get(nameOf(call));
        if (value == null) {
            throw new IllegalArgumentException("no failure value for " + call);
        }
        script.add(new Scripted(call, nth, value, error));
    }

    /** The next call that is {@code call}, or named so, waits inside the binding until released or cancelled. */
    final synchronized Hold hold(String call) {
        Hold h = new Hold(call);
        holds.add(h);
        return h;
    }

    /** Runs {@code action} inside the next call that is {@code call}, on the thread making it, before it answers. */
    final synchronized void during(String call, Runnable action) {
        during.put(call, action);
    }

    /** Whether {@code t} waits in a held call now. */
    final synchronized boolean isHeld(Thread t) {
        return heldNow.containsKey(t);
    }

    /** Cancels the held call {@code t} waits in, if any: {@code CancelSynchronousIo}. */
    final boolean cancelHeld(Thread t) {
        Hold held = heldNow.get(t);
        if (held == null) {
            return false;
        }
        held.cancel();
        return true;
    }

    // ------------------------------------------------------------------ the log

    /** Every call, in order. */
    final synchronized List<String> calls() {
        return new ArrayList<>(calls);
    }

    /** The calls that act, in order: every call but the lookups ({@code _get_osfhandle}, {@code GetStdHandle}, {@code CompareObjectHandles}, {@code GetHandleInformation}). */
    final synchronized List<String> actions() {
        List<String> acting = new ArrayList<>();
        for (String c : calls) {
            if (!LOOKS.contains(nameOf(c))) {
                acting.add(c);
            }
        }
        return acting;
    }

    /** The thread that made the first call {@code call}, or null. */
    final synchronized String threadOf(String call) {
        int i = calls.indexOf(call);
        return i < 0 ? null : callThreads.get(i);
    }

    /** Forgets the calls made so far. */
    final synchronized void forgetCalls() {
        calls.clear();
        callThreads.clear();
    }

    /** A line in the log that is not a call: something the test did, to be seen in order with the calls. */
    final synchronized void mark(String what) {
        calls.add(what);
        callThreads.add(Thread.currentThread().getName());
    }

    static String hex(long value) {
        return "0x" + Long.toHexString(value);
    }

    private static String nameOf(String call) {
        int paren = call.indexOf('(');
        return paren < 0 ? call : call.substring(0, paren);
    }

    // ------------------------------------------------------------------ making a call

    /** Logs {@code call}, runs what is set to run inside it, and answers from the script or else {@code unscripted}, under this monitor. */
    final long call(String call, Supplier<Answer> unscripted) {
        Runnable action;
        Hold hold;
        synchronized (this) {
            calls.add(call);
            callThreads.add(Thread.currentThread().getName());
            action = during.remove(call);
            hold = takeHold(call);
        }
        if (action != null) {
            action.run();
        }
        boolean cancelled = hold != null && waitIn(hold);
        synchronized (this) {
            Answer a = cancelled ? Answer.failed(nameOf(call), WindowsErrors.ERROR_OPERATION_ABORTED) : scripted(call);
            if (a == null) {
                a = unscripted.get();
            }
            errors.get()[call.startsWith("_") ? 0 : 1] = a.error();
            return a.value();
        }
    }

    /** The calling thread's {@code errno} after its last call. */
    final int errno() {
        return errors.get()[0];
    }

    /** The calling thread's {@code GetLastError()} after its last call. */
    final int win32Error() {
        return errors.get()[1];
    }

    private boolean waitIn(Hold hold) {
        synchronized (this) {
            heldNow.put(Thread.currentThread(), hold);
        }
        try {
            return hold.waitInside();
        } finally {
            synchronized (this) {
                heldNow.remove(Thread.currentThread());
            }
        }
    }

    /** Counts the call against every entry it matches; the first that comes due answers it, a second one the next call. */
    private Answer scripted(String call) {
        Scripted due = null;
        for (Scripted s : script) {
            if (s.call.equals(call) || s.call.equals(nameOf(call))) {
                if (--s.nth == 0 && due == null) {
                    due = s;
                } else if (s.nth == 0) {
                    s.nth = 1;
                }
            }
        }
        if (due == null) {
            return null;
        }
        script.remove(due);
        return new Answer(due.value, due.error);
    }

    private Hold takeHold(String call) {
        for (Hold h : holds) {
            if (h.call.equals(call) || h.call.equals(nameOf(call))) {
                holds.remove(h);
                return h;
            }
        }
        return null;
    }
}
