package io.mcpwire.platform.rules.windows;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The C runtime half of the scripted binding, and the small table both halves answer from when
 * unscripted, as Windows would: a descriptor is on a handle; {@code _dup} and the opens take the
 * lowest free descriptor; a new handle takes the value the allocator hands out next
 * ({@link #nextValues}, else a fresh one from 0x1000); a handle names its kernel object until it
 * is closed, unless protected from close or another descriptor is on it (fd 1 and fd 2 on one value).
 */
abstract class ScriptedUcrt extends ScriptedCalls implements Win32 {
    static final int EMFILE = 24;

    final Map<Integer, Long> descriptors = new TreeMap<>();
    final Map<Long, String> objects = new HashMap<>();
    final Set<Long> inheritable = new HashSet<>();
    final Set<Long> protectedFromClose = new HashSet<>();
    final Map<Integer, Long> slots = new HashMap<>();
    private final Deque<Long> nextValues = new ArrayDeque<>();
    private long fresh = 0x1000;
    private int pipes;

    // ------------------------------------------------------------------ the table, set and read by tests

    /** fd on {@code handle}, a handle on {@code object}; the handle fd had before is closed. -2: open with no OS handle. */
    final synchronized void open(int fd, long handle, String object) {
        Long before = descriptors.put(fd, handle);
        if (before != null && before != handle) {
            closeHandleOf(before);
        }
        if (handle >= 0) {
            objects.put(handle, object);
        }
    }

    /** fd closed, its handle too. */
    final synchronized void closed(int fd) {
        Long h = descriptors.remove(fd);
        if (h != null) {
            closeHandleOf(h);
        }
    }

    /** A handle that no descriptor holds (another thread's, say). */
    final synchronized void handle(long handle, String object) {
        objects.put(handle, object);
    }

    /** A handle value closed by someone else, protected or not: free for the allocator. */
    final synchronized void freed(long handle) {
        protectedFromClose.remove(handle);
        objects.remove(handle);
    }

    /** The slot of fd 0, 1 or 2. */
    final synchronized void slot(int fd, long handle) {
        slots.put(WindowsPlatform.STD_SLOTS[fd], handle);
    }

    /** The values new handles take, in order, before fresh ones. */
    final synchronized void nextValues(long... values) {
        for (long v : values) {
            nextValues.add(v);
        }
    }

    final synchronized long slotOf(int fd) {
        return slots.getOrDefault(WindowsPlatform.STD_SLOTS[fd], 0L);
    }

    /** The object fd's handle names, or null. */
    final synchronized String objectOf(int fd) {
        Long h = descriptors.get(fd);
        return h == null ? null : objects.get(h);
    }

    /** The object a handle value names, or null when it is free. */
    final synchronized String objectNamedBy(long handle) {
        return objects.get(handle);
    }

    final synchronized Set<Integer> openDescriptors() {
        return new HashSet<>(descriptors.keySet());
    }

    final synchronized boolean inheritable(long handle) {
        return inheritable.contains(handle);
    }

    final synchronized boolean protectedFromClose(long handle) {
        return protectedFromClose.contains(handle);
    }

    // ------------------------------------------------------------------ making handles and descriptors, under this monitor

    final long newHandle(String object) {
        Long v = nextValues.poll();
        if (v == null) {
            while (objects.containsKey(fresh)) {
                fresh += 4;
            }
            v = fresh;
            fresh += 4;
        }
        if (objects.containsKey(v)) {
            throw new IllegalStateException("scripted value " + hex(v) + " is in use");
        }
        objects.put(v, object);
        return v;
    }

    private int lowestFree() {
        int fd = 0;
        while (descriptors.containsKey(fd)) {
            fd++;
        }
        return fd;
    }

    private int newDescriptor(String object, boolean inherited) {
        int fd = lowestFree();
        long h = newHandle(object);
        descriptors.put(fd, h);
        if (inherited) {
            inheritable.add(h);
        }
        return fd;
    }

    /** What {@code _close} does to the handle. */
    private void closeHandleOf(long h) {
        if (!protectedFromClose.contains(h) && !descriptors.containsValue(h)) {
            objects.remove(h);
            inheritable.remove(h);
        }
    }

    // ------------------------------------------------------------------ the C runtime

    @Override
    public long getOsfHandle(int fd) {
        return call("_get_osfhandle(" + fd + ")", () -> {
            Long h = descriptors.get(fd);
            return h == null ? Answer.failed("_get_osfhandle", WindowsErrors.EBADF) : Answer.ok(h);
        });
    }

    @Override
    public int openOsfHandle(long handle, int flags) {
        return (int) call("_open_osfhandle(" + hex(handle) + ", " + hex(flags) + ")", () -> {
            int fd = lowestFree();
            descriptors.put(fd, handle);
            return Answer.ok(fd);
        });
    }

    /** An inheritable duplicate, as {@code _dup} makes. */
    @Override
    public int dup(int fd) {
        return (int) call("_dup(" + fd + ")", () -> {
            Long h = descriptors.get(fd);
            return h == null ? Answer.failed("_dup", WindowsErrors.EBADF) : Answer.ok(newDescriptor(objects.get(h), true));
        });
    }

    @Override
    public int pipe(int[] fds, int size, int flags) {
        return (int) call("_pipe(" + size + ", " + hex(flags) + ")", () -> {
            int n = ++pipes;
            fds[0] = newDescriptor("pipe#" + n + " read end", false);
            fds[1] = newDescriptor("pipe#" + n + " write end", false);
            return Answer.ok(0);
        });
    }

    /** Closes the target's handle first, then duplicates the source's onto it. */
    @Override
    public int dup2(int source, int target) {
        return (int) call("_dup2(" + source + ", " + target + ")", () -> {
            Long from = descriptors.get(source);
            if (from == null) {
                return Answer.failed("_dup2", WindowsErrors.EBADF);
            }
            Long before = descriptors.remove(target);
            if (before != null) {
                closeHandleOf(before);
            }
            descriptors.put(target, newHandle(objects.get(from)));
            return Answer.ok(0);
        });
    }

    @Override
    public int open(String path, int flags) {
        return (int) call("_open(" + path + ", " + hex(flags) + ")", () -> Answer.ok(newDescriptor(path.equals("NUL") ? "nul" : "file:" + path, false)));
    }

    @Override
    public int wopen(String path, int flags, int mode) {
        return (int) call("_wopen(" + path + ", " + hex(flags) + ", " + hex(mode) + ")", () -> Answer.ok(newDescriptor("file:" + path, false)));
    }

    @Override
    public int close(int fd) {
        return (int) call("_close(" + fd + ")", () -> {
            Long h = descriptors.remove(fd);
            if (h == null) {
                return Answer.failed("_close", WindowsErrors.EBADF);
            }
            closeHandleOf(h);
            return Answer.ok(0);
        });
    }

    @Override
    public int crtErrno() {
        return errno();
    }

    /** What a binding that gives no child-start monitor of its own answers. */
    final Object jdkChildStartLock() {
        return Win32.super.childStartLock();
    }
}
