package io.mcpwire.platform.test;

import io.mcpwire.platform.StandardOrigin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The descriptor table proper of a {@link FakeProcess}: which open file each descriptor refers
 * to, its close-on-exec flag, the OS standard-handle slots, and which standard descriptors the
 * parent left closed (so that the JVM's own files sit there). Not thread-safe: the process's lock
 * guards it.
 */
final class FakeTable implements DescriptorModel {
    private final FakeFile[] files = new FakeFile[FakeProcess.TABLE_SIZE];
    private final boolean followsDescriptors;
    private final boolean[] cloexec = new boolean[FakeProcess.TABLE_SIZE];
    private final FakeFile[] slots = new FakeFile[3];
    private final FakeFile[] ownAtStart = new FakeFile[3];

    /** A table whose children get the descriptors themselves, or the slots ({@code followsDescriptors} false). */
    FakeTable(boolean followsDescriptors) {
        this.followsDescriptors = followsDescriptors;
    }

    static boolean inRange(int fd) {
        return fd >= 0 && fd < FakeProcess.TABLE_SIZE;
    }

    @Override
    public FakeFile file(int fd) {
        return get(fd);
    }

    /** The open file {@code fd} refers to, or null when it is closed or out of range. */
    FakeFile get(int fd) {
        return inRange(fd) ? files[fd] : null;
    }

    void install(int fd, FakeFile file, boolean closeOnExec) {
        file.retain();
        files[fd] = file;
        cloexec[fd] = closeOnExec;
    }

    /** Puts the JVM's own file on standard descriptor {@code fd}, which the parent left closed. */
    void installOwn(int fd, FakeFile file) {
        ownAtStart[fd] = file;
        install(fd, file, false);
    }

    /** {@code pipe(2)}'s two ends on the lowest free descriptors from 3 up: {read, write}, the write end -1 when the table is full. */
    int[] pipe(FakeFile read, FakeFile write) {
        int r = allocate(read, 3);
        int w = r < 0 ? -1 : allocate(write, 3);
        if (w < 0) {
            close(r);
        }
        return new int[] {r, w};
    }

    /** Installs {@code file} on the lowest free descriptor from {@code floor}, close-on-exec; -1 when full. */
    int allocate(FakeFile file, int floor) {
        for (int fd = floor; fd < files.length; fd++) {
            if (files[fd] == null) {
                install(fd, file, true);
                return fd;
            }
        }
        return -1;
    }

    @Override
    public void close(int fd) {
        if (inRange(fd) && files[fd] != null) {
            files[fd].release();
            files[fd] = null;
            cloexec[fd] = false;
        }
    }

    /** Points the standard-handle slot {@code fd} at what {@code fd} refers to now. */
    void rebind(int fd) {
        slots[fd] = files[fd];
    }

    /** Whether the parent gave standard descriptor {@code fd} (0..2) a file at start. */
    boolean givenAtStart(int fd) {
        return ownAtStart[fd] == null;
    }

    /** The JVM's own file while it is on a descriptor the parent left closed; closed; else inherited. */
    StandardOrigin origin(int fd) {
        if (files[fd] == null) {
            return StandardOrigin.CLOSED;
        }
        return fd < 3 && files[fd] == ownAtStart[fd] ? StandardOrigin.PROCESS_OWN : StandardOrigin.INHERITED;
    }

    @Override
    public void closeAll() {
        for (int fd = 0; fd < files.length; fd++) {
            close(fd);
        }
    }

    @Override
    public boolean isCloseOnExec(int fd) {
        return files[fd] != null && cloexec[fd];
    }

    @Override
    public String describe(int fd) {
        FakeFile f = get(fd);
        return f != null ? f.label : "closed";
    }

    @Override
    public String describeSlot(int fd) {
        FakeFile f = slots[fd];
        if (f == null) {
            return "closed";
        }
        return f.refs == 0 ? "stale handle to " + f.label : f.label;
    }

    @Override
    public TableSnapshot snapshot() {
        Map<Integer, String> fds = new HashMap<>();
        for (int fd = 0; fd < files.length; fd++) {
            if (files[fd] != null) {
                fds.put(fd, files[fd].label + " #" + files[fd].id + (cloexec[fd] ? " [cloexec]" : ""));
            }
        }
        Map<Integer, String> s = new HashMap<>();
        for (int fd = 0; fd < 3; fd++) {
            s.put(fd, describeSlot(fd));
        }
        return new TableSnapshot(fds, s);
    }

    /** The slots in Windows style, else the descriptors themselves. */
    @Override
    public List<String> childStdio() {
        List<String> out = new ArrayList<>();
        for (int fd = 0; fd < 3; fd++) {
            out.add(followsDescriptors ? describe(fd) : describeSlot(fd));
        }
        return out;
    }

    @Override
    public Set<FakeFile> reachableByChild() {
        Set<FakeFile> out = new HashSet<>();
        for (int fd = 0; fd < 3; fd++) {
            FakeFile f = followsDescriptors ? files[fd] : slots[fd];
            if (f != null && f.refs > 0) {
                out.add(f);
            }
        }
        for (int fd : inherited()) {
            out.add(files[fd]);
        }
        return out;
    }

    /** Open and not close-on-exec, in order. */
    @Override
    public List<Integer> inherited() {
        List<Integer> out = new ArrayList<>();
        for (int fd = 0; fd < files.length; fd++) {
            if (files[fd] != null && !cloexec[fd]) {
                out.add(fd);
            }
        }
        return List.copyOf(out);
    }
}
