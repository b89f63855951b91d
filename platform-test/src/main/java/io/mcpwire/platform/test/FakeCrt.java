package io.mcpwire.platform.test;

import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Windows model of a fake process: the Universal C Runtime's descriptors over Win32 handles,
 * the three standard-handle slots, and the handles the JVM's own streams captured at start.
 *
 * <p>The rules it keeps, as Windows does: a handle names one open file (a kernel file object), and
 * the file lives while any handle names it; handle values are multiples of four, and a closed one
 * is reused, lowest first, so a stale value may come to name another file; a descriptor owns its
 * handle ({@code _close} closes it); {@code _dup2} closes the target's handle and gives the target
 * a new, inheritable duplicate of the source's; the slots are plain values that nothing updates
 * when their handle closes; a process started without a stream has that descriptor open with no
 * handle and an empty slot. Not thread-safe: the kernel's lock guards it.
 */
final class FakeCrt implements DescriptorModel {
    /** {@code _get_osfhandle} of a descriptor open without an OS handle. */
    static final long NO_HANDLE = -2;
    private static final long FIRST_HANDLE = 0x40;

    /** A live handle: the file it names, and whether a child inherits it. */
    private record Handle(FakeFile file, boolean inheritable) {
    }

    private final Map<Long, Handle> handles = new HashMap<>();
    /** Descriptor to handle value; 0 is a free descriptor. */
    private final long[] descriptors = new long[FakeProcess.TABLE_SIZE];
    private final long[] slots = new long[3];
    private final long[] jvmHandles = new long[3];

    static boolean inRange(int fd) {
        return fd >= 0 && fd < FakeProcess.TABLE_SIZE;
    }

    /** At start: standard descriptor {@code fd}, its slot and the JVM's stream all hold one handle on {@code file}; null gives none. */
    void installStandard(int fd, FakeFile file) {
        long h = file == null ? 0 : newHandle(file, true);
        descriptors[fd] = file == null ? NO_HANDLE : h;
        slots[fd] = h;
        jvmHandles[fd] = h;
    }

    /** A new handle on {@code file}, at the lowest free value. */
    long newHandle(FakeFile file, boolean inheritable) {
        long h = FIRST_HANDLE;
        while (handles.containsKey(h)) {
            h += 4;
        }
        file.retain();
        handles.put(h, new Handle(file, inheritable));
        return h;
    }

    /** The file {@code handle} names, or null when it is not a live handle. */
    FakeFile fileOf(long handle) {
        Handle h = handles.get(handle);
        return h == null ? null : h.file();
    }

    /** Closes {@code handle}; false when it was not live. */
    boolean closeHandle(long handle) {
        Handle h = handles.remove(handle);
        if (h == null) {
            return false;
        }
        h.file().release();
        return true;
    }

    /** {@code _get_osfhandle}: the handle, {@link #NO_HANDLE}, or -1 when {@code fd} is not open. */
    long osHandle(int fd) {
        if (!inRange(fd) || descriptors[fd] == 0) {
            return -1;
        }
        return descriptors[fd];
    }

    boolean isOpen(int fd) {
        return osHandle(fd) != -1;
    }

    /** Puts {@code handle} on the lowest free descriptor, which then owns it; -1 when the table is full. */
    int allocate(long handle) {
        for (int fd = 0; fd < descriptors.length; fd++) {
            if (descriptors[fd] == 0) {
                descriptors[fd] = handle;
                return fd;
            }
        }
        return -1;
    }

    /** Makes free descriptor {@code fd} own {@code handle}. */
    void put(int fd, long handle) {
        descriptors[fd] = handle;
    }

    /** The descriptor that owns {@code handle}, or -1. */
    int ownerOf(long handle) {
        for (int fd = 0; fd < descriptors.length; fd++) {
            if (descriptors[fd] == handle) {
                return fd;
            }
        }
        return -1;
    }

    long slot(int fd) {
        return slots[fd];
    }

    void setSlot(int fd, long handle) {
        slots[fd] = handle;
    }

    /** The handle the JVM's stream {@code fd} (System.in, out, err) captured at start; 0 for none. */
    long jvmHandle(int fd) {
        return jvmHandles[fd];
    }

    @Override
    public FakeFile file(int fd) {
        long h = osHandle(fd);
        return h > 0 ? fileOf(h) : null;
    }

    @Override
    public void close(int fd) {
        if (isOpen(fd)) {
            if (descriptors[fd] != NO_HANDLE) {
                closeHandle(descriptors[fd]);
            }
            descriptors[fd] = 0;
        }
    }

    @Override
    public void closeAll() {
        for (int fd = 0; fd < descriptors.length; fd++) {
            descriptors[fd] = 0;
        }
        for (Long h : new ArrayList<>(handles.keySet())) {
            closeHandle(h);
        }
    }

    @Override
    public String describe(int fd) {
        long h = osHandle(fd);
        if (h == -1) {
            return "closed";
        }
        return h == NO_HANDLE ? "no OS handle" : fileOf(h).label;
    }

    @Override
    public String describeSlot(int fd) {
        long h = slots[fd];
        if (h == 0) {
            return "closed";
        }
        FakeFile f = fileOf(h);
        return f == null ? "stale handle" : f.label;
    }

    @Override
    public boolean isCloseOnExec(int fd) {
        long h = osHandle(fd);
        return h > 0 && !handles.get(h).inheritable();
    }

    @Override
    public List<Integer> inherited() {
        List<Integer> out = new ArrayList<>();
        for (int fd = 0; fd < descriptors.length; fd++) {
            long h = descriptors[fd];
            if (h > 0 && handles.get(h).inheritable()) {
                out.add(fd);
            }
        }
        return List.copyOf(out);
    }

    /** A child gets the slots as its stdio. */
    @Override
    public List<String> childStdio() {
        return List.of(describeSlot(0), describeSlot(1), describeSlot(2));
    }

    /** The files its slots name, and every inheritable handle's (a child inherits them all). */
    @Override
    public Set<FakeFile> reachableByChild() {
        Set<FakeFile> out = new HashSet<>();
        for (long slot : slots) {
            FakeFile f = fileOf(slot);
            if (f != null) {
                out.add(f);
            }
        }
        handles.values().stream().filter(Handle::inheritable).forEach(h -> out.add(h.file()));
        return out;
    }

    @Override
    public TableSnapshot snapshot() {
        Map<Integer, String> fds = new TreeMap<>();
        for (int fd = 0; fd < descriptors.length; fd++) {
            long h = descriptors[fd];
            if (h == NO_HANDLE) {
                fds.put(fd, "no OS handle");
            } else if (h != 0) {
                Handle handle = handles.get(h);
                fds.put(fd, handle.file().label + " #" + handle.file().id + (handle.inheritable() ? "" : " [noinherit]"));
            }
        }
        // A handle no descriptor owns has leaked: listed under its negated value.
        Set<Long> owned = new HashSet<>();
        for (long h : descriptors) {
            owned.add(h);
        }
        handles.forEach((h, handle) -> {
            if (!owned.contains(h)) {
                fds.put((int) -h, "leaked handle on " + handle.file().label + " #" + handle.file().id);
            }
        });
        Map<Integer, String> s = new HashMap<>();
        for (int fd = 0; fd < 3; fd++) {
            s.put(fd, describeSlot(fd));
        }
        return new TableSnapshot(fds, s);
    }

    /** What {@code GetFileType} answers for {@code f}. */
    static int fileType(FakeFile f) {
        return switch (f.role) {
            case PIPE_READ, PIPE_WRITE -> WindowsPlatform.FILE_TYPE_PIPE;
            case NULL_DEVICE -> WindowsPlatform.FILE_TYPE_CHAR;
            case FILE -> WindowsPlatform.FILE_TYPE_DISK;
            case SINK -> switch (f.kind) {
                case TERMINAL -> WindowsPlatform.FILE_TYPE_CHAR;
                case FILE -> WindowsPlatform.FILE_TYPE_DISK;
                default -> WindowsPlatform.FILE_TYPE_PIPE; // stderr: the client's log pipe
            };
        };
    }

    /** The standard descriptor of a slot ({@code STD_INPUT_HANDLE} -10 is 0, and so on). */
    static int slotIndex(int slot) {
        if (slot < -12 || slot > -10) {
            throw new IllegalArgumentException("not a standard-handle slot: " + slot);
        }
        return -10 - slot;
    }
}
