package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.NativeMemory;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Win32} binding for the rules' tests: each call logged in order with the thread that
 * made it, and answered from a script or, unscripted, from a small table as Windows would
 * ({@link ScriptedCalls}, {@link ScriptedUcrt}); this class holds the Win32 half: handles, slots,
 * queries (what a handle's object is called says what it is: {@code pipe...}, {@code file:...},
 * {@code nul}, {@code console}), {@code ReadFile}/{@code WriteFile} and their cancel.
 */
final class ScriptedWin32 extends ScriptedUcrt {
    static final long STDIN_HANDLE = 0x10;
    static final long STDOUT_HANDLE = 0x14;
    static final long STDERR_HANDLE = 0x18;
    static final int ERROR_ACCESS_DENIED = 5;
    static final int ERROR_INVALID_HANDLE = 6;
    static final int ERROR_NOT_ENOUGH_MEMORY = 8;
    static final int ERROR_NOT_FOUND = 1168;
    static final int ERROR_INVALID_PARAMETER = 87;
    /** What {@link #pinToCurrentProcessor} answers: the mask to put back. */
    private static final long PREVIOUS_AFFINITY = 0xff;
    private static final Map<Integer, String> SLOT_NAMES = Map.of(-10, "STD_INPUT_HANDLE", -11, "STD_OUTPUT_HANDLE", -12, "STD_ERROR_HANDLE");

    private final Map<Long, Thread> threadHandles = new HashMap<>();
    private final Deque<byte[]> input = new ArrayDeque<>();
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private int allocations;
    private boolean compareObjectHandlesMissing;
    /** The JDK's child-start monitor, as a model gives its own. */
    final Object childStarts = new Object();

    /** A process started on three pipes: fd 0 to 2 on handles 0x10, 0x14 and 0x18, which the slots name too. */
    static ScriptedWin32 startedOnPipes() {
        ScriptedWin32 w = new ScriptedWin32();
        w.open(0, STDIN_HANDLE, "pipe:client-in");
        w.open(1, STDOUT_HANDLE, "pipe:client-out");
        w.open(2, STDERR_HANDLE, "pipe:stderr");
        for (int fd = 0; fd < 3; fd++) {
            w.slot(fd, w.descriptors.get(fd));
        }
        return w;
    }

    /** The rules over this binding, on a table of their own, with {@link #patience()}. */
    WindowsPlatform platform() {
        return platformOn(DescriptorTable.create("scripted table"));
    }

    /** The rules over this binding, on {@code table}. */
    WindowsPlatform platformOn(DescriptorTable table) {
        return new WindowsPlatform(NativeBinding.of("scripted Win32", this), table, patience()) {
            @Override
            public String name() {
                return "scripted";
            }

            @Override
            public int priority() {
                return 0;
            }
        };
    }

    /**
     * Waits for a call until it returns, and gives up on it exactly when it is held: so what the
     * rules do with a call that waits too long does not depend on the clock.
     */
    Patience patience() {
        return call -> {
            while (!call.awaitReturn(TimeUnit.MILLISECONDS.toNanos(1))) {
                if (isHeld(call.worker())) {
                    return call.awaitReturn(0);
                }
            }
            return true;
        };
    }

    /** Bytes that the next {@code ReadFile} gives. */
    synchronized void input(String text) {
        input.add(text.getBytes(StandardCharsets.UTF_8));
    }

    /** As before Windows 10 1607: {@code CompareObjectHandles} is missing. */
    synchronized void removeCompareObjectHandles() {
        compareObjectHandlesMissing = true;
    }

    /** The bytes {@code WriteFile} took. */
    synchronized String written() {
        return written.toString(StandardCharsets.UTF_8);
    }

    /** How many native buffers were allocated. */
    synchronized int allocations() {
        return allocations;
    }

    // ------------------------------------------------------------------ handles

    @Override
    public long duplicateHandle(long handle, boolean inherit) {
        return call("DuplicateHandle(" + hex(handle) + ")", () -> {
            String object = objects.get(handle);
            return object == null ? Answer.failed("DuplicateHandle", ERROR_INVALID_HANDLE) : Answer.ok(newHandle(object));
        });
    }

    @Override
    public boolean setInheritable(long handle, boolean inherit) {
        return setFlag("INHERIT", inheritable, handle, inherit);
    }

    @Override
    public boolean setProtectFromClose(long handle, boolean protect) {
        return setFlag("PROTECT_FROM_CLOSE", protectedFromClose, handle, protect);
    }

    private boolean setFlag(String flag, Set<Long> having, long handle, boolean set) {
        return call("SetHandleInformation(" + hex(handle) + ", " + flag + ", " + (set ? 1 : 0) + ")", () -> {
            if (!objects.containsKey(handle)) {
                return Answer.failed("SetHandleInformation", ERROR_INVALID_HANDLE);
            }
            if (set) {
                having.add(handle);
            } else {
                having.remove(handle);
            }
            return Answer.ok(1);
        }) != 0;
    }

    @Override
    public int handleFlags(long handle) {
        return (int) call("GetHandleInformation(" + hex(handle) + ")", () -> objects.containsKey(handle)
                ? Answer.ok((inheritable.contains(handle) ? HANDLE_FLAG_INHERIT : 0) | (protectedFromClose.contains(handle) ? HANDLE_FLAG_PROTECT_FROM_CLOSE : 0))
                : Answer.failed("GetHandleInformation", ERROR_INVALID_HANDLE));
    }

    /** Finds nothing pending unless scripted. */
    @Override
    public boolean cancelIo(long handle) {
        return call("CancelIoEx(" + hex(handle) + ")", () -> Answer.failed("CancelIoEx", ERROR_NOT_FOUND)) != 0;
    }

    /** Fails on a free value, and on a handle protected from close, which stays open. */
    @Override
    public boolean closeHandle(long handle) {
        return call("CloseHandle(" + hex(handle) + ")", () -> {
            if (!objects.containsKey(handle) || protectedFromClose.contains(handle)) {
                return Answer.failed("CloseHandle", ERROR_INVALID_HANDLE);
            }
            objects.remove(handle);
            inheritable.remove(handle);
            threadHandles.remove(handle);
            return Answer.ok(1);
        }) != 0;
    }

    @Override
    public long getStdHandle(int slot) {
        return call("GetStdHandle(" + SLOT_NAMES.get(slot) + ")", () -> Answer.ok(slots.getOrDefault(slot, 0L)));
    }

    @Override
    public boolean setStdHandle(int slot, long handle) {
        return call("SetStdHandle(" + SLOT_NAMES.get(slot) + ", " + hex(handle) + ")", () -> {
            slots.put(slot, handle);
            return Answer.ok(1);
        }) != 0;
    }

    /** Whether both name one object; null, unlogged, where the call is missing. */
    @Override
    public Boolean compareObjectHandles(long a, long b) {
        synchronized (this) {
            if (compareObjectHandlesMissing) {
                return null;
            }
        }
        return call("CompareObjectHandles(" + hex(a) + ", " + hex(b) + ")", () -> {
            String oa = objects.get(a);
            return Answer.ok(oa != null && oa.equals(objects.get(b)) ? 1 : 0);
        }) != 0;
    }

    // ------------------------------------------------------------------ queries

    @Override
    public int getFileType(long handle) {
        return (int) call("GetFileType(" + hex(handle) + ")", () -> {
            String object = objects.get(handle);
            if (object == null) {
                return Answer.failed("GetFileType", ERROR_INVALID_HANDLE);
            }
            return Answer.ok(object.startsWith("pipe") ? WindowsPlatform.FILE_TYPE_PIPE
                    : object.startsWith("file:") ? WindowsPlatform.FILE_TYPE_DISK
                    : object.equals("nul") || object.startsWith("console") ? WindowsPlatform.FILE_TYPE_CHAR
                    : WindowsPlatform.FILE_TYPE_UNKNOWN);
        });
    }

    @Override
    public boolean isConsole(long handle) {
        return call("GetConsoleMode(" + hex(handle) + ")", () -> {
            String object = objects.get(handle);
            return object != null && object.startsWith("console") ? Answer.ok(1) : Answer.failed("GetConsoleMode", ERROR_INVALID_HANDLE);
        }) != 0;
    }

    /** A file's id: volume 0x5eed, and an index of its path. */
    @Override
    public long[] fileId(long handle) {
        String[] object = new String[1];
        long ok = call("GetFileInformationByHandle(" + hex(handle) + ")", () -> {
            object[0] = objects.get(handle);
            return object[0] != null && object[0].startsWith("file:") ? Answer.ok(1)
                    : Answer.failed("GetFileInformationByHandle", ERROR_INVALID_HANDLE);
        });
        return ok == 0 ? null : new long[] {0x5eed, object[0].hashCode() & 0xffffffffL};
    }

    // ------------------------------------------------------------------ reading and writing

    @Override
    public synchronized NativeMemory allocate(long bytes) {
        allocations++;
        return new ScriptedMemory((int) bytes);
    }

    /** The next scripted input, up to {@code count} bytes; none: end of file. */
    @Override
    public int readFile(long handle, NativeMemory buffer, int count) {
        return (int) call("ReadFile(" + hex(handle) + ", " + count + ")", () -> {
            byte[] next = input.poll();
            if (next == null) {
                return Answer.ok(0);
            }
            int n = Math.min(count, next.length);
            buffer.write(0, next, 0, n);
            if (n < next.length) {
                input.addFirst(Arrays.copyOfRange(next, n, next.length));
            }
            return Answer.ok(n);
        });
    }

    /** Takes every byte, or as many as scripted. */
    @Override
    public int writeFile(long handle, NativeMemory buffer, int offset, int count) {
        int n = (int) call("WriteFile(" + hex(handle) + ", " + offset + ", " + count + ")", () -> Answer.ok(count));
        if (n > 0) {
            byte[] taken = new byte[n];
            buffer.read(offset, taken, 0, n);
            synchronized (this) {
                written.write(taken, 0, n);
            }
        }
        return n;
    }

    @Override
    public int lastError() {
        return win32Error();
    }

    @Override
    public long openCurrentThread() {
        Thread me = Thread.currentThread();
        return call("OpenThread(" + me.getName() + ")", () -> {
            long h = newHandle("thread:" + me.getName());
            threadHandles.put(h, me);
            return Answer.ok(h);
        });
    }

    @Override
    public long createJobObject() {
        return call("CreateJobObjectW(NULL, NULL)", () -> Answer.ok(newHandle("job")));
    }

    @Override
    public boolean setJobLimits(long job) {
        return call("SetInformationJobObject(" + hex(job) + ", KILL_ON_JOB_CLOSE|BREAKAWAY_OK)", () -> isJob(job)
                ? Answer.ok(1) : Answer.failed("SetInformationJobObject", ERROR_INVALID_HANDLE)) != 0;
    }

    @Override
    public boolean assignCurrentProcess(long job) {
        return call("AssignProcessToJobObject(" + hex(job) + ", this process)", () -> isJob(job)
                ? Answer.ok(1) : Answer.failed("AssignProcessToJobObject", ERROR_INVALID_HANDLE)) != 0;
    }

    // ------------------------------------------------------------------ processes, events and waits

    /** What a wait may find signalled, guarded by itself alone (never with this object's monitor held). */
    private final Object signals = new Object();
    private final Set<Long> liveProcesses = new HashSet<>();
    private final Set<Long> exitedProcesses = new HashSet<>();
    private final Map<Long, Long> processOfHandle = new HashMap<>();
    private final Set<Long> setEvents = new HashSet<>();

    /** A process with this id runs, for {@code OpenProcess} to find. */
    void process(long pid) {
        synchronized (signals) {
            liveProcesses.add(pid);
        }
    }

    /** The process exits: its handles are signalled. */
    void exits(long pid) {
        synchronized (signals) {
            exitedProcesses.add(pid);
            signals.notifyAll();
        }
    }

    @Override
    public boolean waitsForProcesses() {
        return true;
    }

    @Override
    public long openProcessToWait(long pid) {
        boolean runs;
        synchronized (signals) {
            runs = liveProcesses.contains(pid);
        }
        long h = call("OpenProcess(SYNCHRONIZE, FALSE, " + pid + ")",
                () -> runs ? Answer.ok(newHandle("process " + pid)) : Answer.failed("OpenProcess", ERROR_INVALID_PARAMETER));
        if (h != 0) {
            synchronized (signals) {
                processOfHandle.put(h, pid);
            }
        }
        return h;
    }

    @Override
    public long createWakeEvent() {
        return call("CreateEventW(NULL, TRUE, FALSE, NULL)", () -> Answer.ok(newHandle("event")));
    }

    @Override
    public boolean setEvent(long event) {
        boolean set = call("SetEvent(" + hex(event) + ")", () -> "event".equals(objects.get(event))
                ? Answer.ok(1) : Answer.failed("SetEvent", ERROR_INVALID_HANDLE)) != 0;
        if (set) {
            synchronized (signals) {
                setEvents.add(event);
                signals.notifyAll();
            }
        }
        return set;
    }

    /** Logged, open to a scripted failure, then blocks until a handle is signalled: a set event, or an exited process's. */
    @Override
    public int waitForAny(long[] handles) {
        long scripted = call("WaitForMultipleObjects(" + handles.length + ", ..., FALSE, INFINITE)", () -> Answer.ok(0));
        if (scripted != 0) {
            return (int) scripted;
        }
        synchronized (signals) {
            while (true) {
                for (int i = 0; i < handles.length; i++) {
                    Long pid = processOfHandle.get(handles[i]);
                    if (setEvents.contains(handles[i]) || (pid != null && exitedProcesses.contains(pid))) {
                        return i;
                    }
                }
                try {
                    signals.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
            }
        }
    }

    private boolean isJob(long handle) {
        return "job".equals(objects.get(handle));
    }

    /** Cancels the held call of that thread; finds nothing when it is in none. */
    @Override
    public boolean cancelSynchronousIo(long thread) {
        return call("CancelSynchronousIo(" + hex(thread) + ")", () -> {
            Thread t = threadHandles.get(thread);
            return t != null && cancelHeld(t) ? Answer.ok(1) : Answer.failed("CancelSynchronousIo", ERROR_NOT_FOUND);
        }) != 0;
    }

    @Override
    public long pinToCurrentProcessor() {
        return call("SetThreadAffinityMask(this processor)", () -> Answer.ok(PREVIOUS_AFFINITY));
    }

    @Override
    public void unpin(long previous) {
        call("SetThreadAffinityMask(" + hex(previous) + ")", () -> Answer.ok(1));
    }

    @Override
    public Object childStartLock() {
        return childStarts;
    }
}
