package io.mcpwire.platform.test;

import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Windows model of a fake process: the Universal C Runtime's descriptors over Win32 handles,
 * the three standard-handle slots, and the handles the JVM's own streams captured at start.
 *
 * <p>The rules it keeps, as Windows does: a handle names one open file (a kernel file object), and
 * the file lives while any handle names it; handle values are multiples of four, and a closed one
 * is reused in the variant's order ({@link WindowsVariant.HandleReuse}), so a stale value may come
 * to name another file; a descriptor owns its handle ({@code _close} closes it), except that fd 1
 * and fd 2 may share one value, which {@code _close} of either leaves open while the other holds it
 * ({@code lowio/close.cpp}); in a console program a handle that lands on fd 0 to 2 is also put in
 * the matching slot, and a closed fd 0 to 2 empties it ({@code lowio/osfinfo.cpp}), while in a GUI
 * program the slots are plain values nothing but {@code SetStdHandle} changes; a process started
 * without a stream has that descriptor open with no handle and an empty slot. The order of
 * {@code _dup2}'s two steps is {@link FakeWin32}'s. Not thread-safe: the kernel's lock guards it.
 */
final class FakeCrt implements DescriptorModel {
    /** {@code _get_osfhandle} of a descriptor open without an OS handle. */
    static final long NO_HANDLE = -2;

    private final WindowsVariant variant;
    /** The Win32 handle table the descriptors' handles live in. */
    final FakeHandles handles;
    /** Descriptor to handle value; 0 is a free descriptor. */
    private final long[] descriptors = new long[FakeProcess.TABLE_SIZE];
    private final long[] slots = new long[3];
    private final long[] jvmHandles = new long[3];
    /** The job the process was put in, whose handle it holds until it ends: a process cannot leave a job. */
    Optional<Long> job = Optional.empty();
    /** The thread blocked reading each pipe end, through any handle ({@code ReadFile} or the JVM's {@code System.in}). */
    final Map<FakeFile, Thread> pendingReads = new HashMap<>();
    /** Where the calls that change this model are written as a claim script, when one is being recorded. */
    ScriptRecorder recorder = ScriptRecorder.OFF;
    /** Threads whose blocking call was cancelled ({@code CancelSynchronousIo}, {@code CancelIoEx}) and has not yet returned. */
    final Set<Thread> cancelled = new HashSet<>();

    /** The C runtime's per-descriptor locks ({@code __acrt_lowio_lock_fh}): a descriptor to the thread holding its lock across a blocking call. */
    final Map<Integer, Thread> crtLocks = new HashMap<>();

    FakeCrt(WindowsVariant variant, java.util.function.IntSupplier currentCpu) {
        this.variant = variant;
        this.handles = new FakeHandles(variant.handleReuse(), currentCpu);
    }

    WindowsVariant variant() {
        return variant;
    }

    /** How a blocking call of the calling thread waits: until the kernel changes, or its call is cancelled, or the process ends. */
    FakeFile.Wait waitUnlessCancelled(FakeKernel kernel) {
        Thread me = Thread.currentThread();
        return new FakeFile.Wait() {
            @Override
            public boolean woken() {
                return cancelled.contains(me) || kernel.threads.processEnded;
            }

            @Override
            public void await() {
                kernel.changed.awaitUninterruptibly();
            }
        };
    }

    static boolean inRange(int fd) {
        return fd >= 0 && fd < FakeProcess.TABLE_SIZE;
    }

    /**
     * At start: standard descriptor {@code fd}, its slot and the JVM's stream all hold one handle on
     * {@code file}; null gives none. fd 2 on the same file as fd 1 shares fd 1's handle value when
     * the variant says so.
     */
    void installStandard(int fd, FakeFile file) {
        long h;
        if (file == null) {
            h = 0;
        } else if (fd == 2 && variant.sharedStdoutStderr() && descriptors[1] > 0 && handles.fileOf(descriptors[1]) == file) {
            h = descriptors[1];
        } else {
            h = handles.open(file, true);
        }
        descriptors[fd] = file == null ? NO_HANDLE : h;
        slots[fd] = h;
        jvmHandles[fd] = h;
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
                put(fd, handle);
                return fd;
            }
        }
        return -1;
    }

    /** {@code CreatePipe}'s two handles, not inherited, each on a C runtime descriptor: {read, write}, the write end -1 when the table is full. */
    int[] pipe(FakeFile read, FakeFile write) {
        long hr = handles.open(read, false);
        long hw = handles.open(write, false);
        int r = allocate(hr);
        int w = r < 0 ? -1 : allocate(hw);
        if (w < 0) {
            close(r);
            handles.close(hw);
        }
        return new int[] {r, w};
    }

    /** Makes free descriptor {@code fd} own {@code handle}; a console program's C runtime puts it in the slot too. */
    void put(int fd, long handle) {
        descriptors[fd] = handle;
        if (fd < 3 && variant.appType() == WindowsVariant.AppType.CONSOLE) {
            slots[fd] = handle;
        }
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

    /** The JDK's {@code fileDescriptorClose} on {@code FileDescriptor.in/out/err}: the field is -1 from now on, whatever the close did. */
    void forgetJvmHandle(int fd) {
        jvmHandles[fd] = 0;
    }

    @Override
    public FakeFile file(int fd) {
        long h = osHandle(fd);
        return h > 0 ? handles.fileOf(h) : null;
    }

    /**
     * {@code _close}: closes fd's handle, unless fd 1 and fd 2 share it and the other is open, and
     * frees fd; a console program's C runtime empties the slot of a closed fd 0 to 2.
     */
    @Override
    public void close(int fd) {
        if (isOpen(fd)) {
            long h = descriptors[fd];
            int other = fd == 1 ? 2 : fd == 2 ? 1 : -1;
            boolean shared = other >= 0 && descriptors[other] == h;
            if (h != NO_HANDLE && !shared) {
                handles.close(h);
            }
            descriptors[fd] = 0;
            if (fd < 3 && variant.appType() == WindowsVariant.AppType.CONSOLE && h != NO_HANDLE) {
                slots[fd] = 0;
            }
        }
    }

    @Override
    public void closeAll() {
        for (int fd = 0; fd < descriptors.length; fd++) {
            descriptors[fd] = 0;
        }
        handles.closeAll();
    }

    @Override
    public String describe(int fd) {
        long h = osHandle(fd);
        if (h == -1) {
            return "closed";
        }
        return h == NO_HANDLE ? "no OS handle" : handles.fileOf(h).label;
    }

    @Override
    public String describeSlot(int fd) {
        long h = slots[fd];
        if (h == 0) {
            return "closed";
        }
        FakeFile f = handles.fileOf(h);
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
            FakeFile f = handles.fileOf(slot);
            if (f != null) {
                out.add(f);
            }
        }
        handles.all().values().stream().filter(FakeHandles.Handle::inheritable).forEach(h -> out.add(h.file()));
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
                FakeHandles.Handle handle = handles.get(h);
                fds.put(fd, handle.file().label + " #" + handle.file().id + (handle.inheritable() ? "" : " [noinherit]"));
            }
        }
        // A handle no descriptor owns has leaked, unless it is one the JVM's own streams hold.
        Set<Long> owned = new HashSet<>();
        for (long h : descriptors) {
            owned.add(h);
        }
        for (long h : jvmHandles) {
            owned.add(h);
        }
        handles.all().forEach((h, handle) -> {
            // Threads' handles are other threads' business; the job the process is in is held for its life.
            boolean otherThreads = handle.file().role == FakeFile.Role.THREAD || handle.file().role == FakeFile.Role.EVENT;
            if (!owned.contains(h) && !otherThreads && !job.equals(Optional.of(h))) {
                fds.put((int) -h, "leaked handle on " + handle.file().label + " #" + handle.file().id);
            }
        });
        Map<Integer, String> s = new HashMap<>();
        Map<Integer, String> jvm = new HashMap<>();
        for (int fd = 0; fd < 3; fd++) {
            s.put(fd, describeSlot(fd));
            jvm.put(fd, describeJvmHandle(fd));
        }
        return new TableSnapshot(fds, s, jvm);
    }

    /** What the handle the JVM's stream {@code fd} captured at start names now. */
    String describeJvmHandle(int fd) {
        long h = jvmHandles[fd];
        if (h == 0) {
            return "none";
        }
        FakeFile f = handles.fileOf(h);
        return f == null ? "closed" : f.label;
    }

    /**
     * What a Java child started now gets, as the JDK's {@code ProcessImpl} starts one on Windows:
     * for each stream redirected with {@code Redirect.INHERIT}, the handle the JVM's own stream
     * captured at start-up, made inheritable for the call; with {@code redirectErrorStream} its
     * stderr is its stdout. {@code CreateProcess} is told to inherit handles, so the child also gets
     * every other inheritable handle, but for the slots' own, whose inheritance the JDK drops for the
     * call. A stream not inherited is a fresh pipe or file, which reaches nothing here (null).
     *
     * @return the child's stdio (null where it is not inherited or the value names nothing), and
     *         every file it can reach
     */
    ChildReach javaChild(boolean[] inherit, boolean redirectErrorStream) {
        FakeFile[] stdio = new FakeFile[3];
        Set<Long> given = new HashSet<>();
        for (int fd = 0; fd < 3; fd++) {
            int from = fd == 2 && redirectErrorStream ? 1 : fd;
            if (inherit[from]) {
                stdio[fd] = handles.fileOf(jvmHandles[from]);
                given.add(jvmHandles[from]);
            }
        }
        Set<FakeFile> reach = new HashSet<>();
        for (FakeFile f : stdio) {
            if (f != null) {
                reach.add(f);
            }
        }
        Set<FakeFile> hidden = new HashSet<>();
        handles.all().forEach((value, h) -> {
            boolean slotHandle = value == slots[0] || value == slots[1] || value == slots[2];
            if (h.inheritable() && (!slotHandle || given.contains(value))) {
                reach.add(h.file());
                int owner = ownerOf(value);
                if (!given.contains(value) && !slotHandle && (owner < 0 || owner > 2)) {
                    hidden.add(h.file()); // neither its stdio nor a standard descriptor's: a private duplicate, say
                }
            }
        });
        return new ChildReach(java.util.Arrays.asList(stdio), reach, hidden);
    }

    /**
     * What a child process gets: its three standard streams (null for none), every file it can
     * reach, and those it reaches through a handle that is neither its stdio nor a standard
     * descriptor's or slot's.
     */
    record ChildReach(List<FakeFile> stdio, Set<FakeFile> reach, Set<FakeFile> hidden) {
    }

    /** What {@code GetFileType} answers for {@code f}. */
    static int fileType(FakeFile f) {
        return switch (f.role) {
            case PIPE_READ, PIPE_WRITE -> WindowsPlatform.FILE_TYPE_PIPE;
            case NULL_DEVICE -> WindowsPlatform.FILE_TYPE_CHAR;
            case FILE -> WindowsPlatform.FILE_TYPE_DISK;
            case THREAD, EVENT, JOB -> WindowsPlatform.FILE_TYPE_UNKNOWN;
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
