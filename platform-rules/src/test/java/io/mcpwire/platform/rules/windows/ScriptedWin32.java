package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.rules.HeapMemory;
import io.mcpwire.platform.rules.NativeMemory;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntSupplier;

/**
 * A Win32 binding whose answers a test scripts: a small table of descriptors over handles, each
 * handle naming an object by name, and, per call, a failure to give once ({@link #fail}).
 * Reads answer from a script of results. Enough to see what the rules decide, not a model of
 * Windows (the fake's is).
 */
final class ScriptedWin32 implements Win32 {
    final Map<Integer, Long> fds = new TreeMap<>();
    final Map<Long, String> objects = new HashMap<>();
    final Map<Integer, Long> slots = new HashMap<>();
    final Map<String, Integer> types = new HashMap<>();
    final Set<Long> closedHandles = new HashSet<>();
    /** The next read's results: a byte count, or a negated GetLastError code. */
    final Deque<IntSupplier> reads = new ArrayDeque<>();
    /** Call name to the error it fails with once ("DuplicateHandle" -> 6). */
    private final Map<String, Integer> failures = new HashMap<>();
    /** Handles made not inheritable with SetHandleInformation. */
    final Set<Long> uninherited = new HashSet<>();
    /** The descriptor the next _open_osfhandle or _dup lands on, or -1 for the lowest free. */
    int nextOsfFd = -1;
    boolean compareMissing;
    private int errno;
    private int lastError;
    private long nextHandle = 0x100;

    ScriptedWin32() {
        for (int fd = 0; fd < 3; fd++) {
            long h = handle(new String[] {"stdin pipe", "stdout pipe", "stderr pipe"}[fd]);
            fds.put(fd, h);
            slots.put(WindowsPlatform.STD_SLOTS[fd], h);
        }
    }

    ScriptedWin32 fail(String call, int error) {
        failures.put(call, error);
        return this;
    }

    long handle(String object) {
        long h = nextHandle;
        nextHandle += 4;
        objects.put(h, object);
        return h;
    }

    String objectAt(int fd) {
        Long h = fds.get(fd);
        return h == null ? "closed" : objects.get(h);
    }

    private boolean failing(String call, boolean crt) {
        Integer code = failures.remove(call);
        if (code == null) {
            return false;
        }
        if (crt) {
            errno = code;
        } else {
            lastError = code;
        }
        return true;
    }

    private int lowestFree() {
        int fd = 0;
        while (fds.containsKey(fd)) {
            fd++;
        }
        return fd;
    }

    @Override
    public long getOsfHandle(int fd) {
        return fds.getOrDefault(fd, -1L);
    }

    @Override
    public int openOsfHandle(long handle, int flags) {
        if (failing("_open_osfhandle", true)) {
            return -1;
        }
        int fd = nextOsfFd >= 0 ? nextOsfFd : lowestFree();
        nextOsfFd = -1;
        fds.put(fd, handle);
        return fd;
    }

    @Override
    public int dup(int fd) {
        if (failing("_dup", true)) {
            return -1;
        }
        int dup = nextOsfFd >= 0 ? nextOsfFd : lowestFree();
        nextOsfFd = -1;
        fds.put(dup, handle(objects.get(fds.get(fd))));
        return dup;
    }

    @Override
    public int pipe(int[] ends, int size, int flags) {
        if (failing("_pipe", true)) {
            return -1;
        }
        ends[0] = lowestFree();
        fds.put(ends[0], handle("own pipe (read end)"));
        ends[1] = lowestFree();
        fds.put(ends[1], handle("own pipe (write end)"));
        return 0;
    }

    @Override
    public int dup2(int source, int target) {
        if (failing("_dup2", true)) {
            return -1;
        }
        fds.put(target, handle(objects.get(fds.get(source))));
        return 0;
    }

    @Override
    public int open(String path, int flags) {
        if (failing("_open", true)) {
            return -1;
        }
        int fd = lowestFree();
        fds.put(fd, handle(path + " flags " + Integer.toHexString(flags)));
        return fd;
    }

    @Override
    public int wopen(String path, int flags, int mode) {
        return open(path, flags);
    }

    @Override
    public int close(int fd) {
        return failing("_close", true) || fds.remove(fd) == null ? -1 : 0;
    }

    @Override
    public int crtErrno() {
        return errno;
    }

    @Override
    public int lastError() {
        return lastError;
    }

    @Override
    public long duplicateHandle(long handle, boolean inheritable) {
        return failing("DuplicateHandle", false) ? 0 : handle(objects.get(handle));
    }

    @Override
    public boolean setInheritable(long handle, boolean inheritable) {
        if (failing("SetHandleInformation", false)) {
            return false;
        }
        if (!inheritable) {
            uninherited.add(handle);
        }
        return true;
    }

    @Override
    public boolean cancelIo(long handle) {
        return false;
    }

    @Override
    public boolean closeHandle(long handle) {
        closedHandles.add(handle);
        return objects.remove(handle) != null;
    }

    @Override
    public long getStdHandle(int slot) {
        return slots.getOrDefault(slot, 0L);
    }

    @Override
    public boolean setStdHandle(int slot, long handle) {
        if (failing("SetStdHandle", false)) {
            return false;
        }
        slots.put(slot, handle);
        return true;
    }

    @Override
    public int getFileType(long handle) {
        if (failing("GetFileType", false)) {
            return WindowsPlatform.FILE_TYPE_UNKNOWN;
        }
        lastError = 0;
        return types.getOrDefault(objects.get(handle), WindowsPlatform.FILE_TYPE_PIPE);
    }

    @Override
    public boolean isConsole(long handle) {
        return objects.get(handle).contains("console");
    }

    @Override
    public long[] fileId(long handle) {
        return failing("GetFileInformationByHandle", false) ? null : new long[] {7, objects.get(handle).hashCode()};
    }

    @Override
    public Boolean compareObjectHandles(long a, long b) {
        return compareMissing ? null : objects.containsKey(a) && objects.get(a).equals(objects.get(b));
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return new HeapMemory(bytes);
    }

    @Override
    public int readFile(long handle, NativeMemory buffer, int count) {
        int n = reads.isEmpty() ? -WindowsErrors.ERROR_BROKEN_PIPE : reads.poll().getAsInt();
        if (n < 0) {
            lastError = -n;
            return -1;
        }
        return n;
    }

    @Override
    public int writeFile(long handle, NativeMemory buffer, int offset, int count) {
        return failing("WriteFile", false) ? -1 : count;
    }

    @Override
    public long openCurrentThread() {
        return 0x999;
    }

    @Override
    public boolean cancelSynchronousIo(long thread) {
        return true;
    }
}
