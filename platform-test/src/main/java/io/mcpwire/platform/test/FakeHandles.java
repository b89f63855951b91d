package io.mcpwire.platform.test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The Win32 handle table of a fake Windows process: each live handle value, the open file it names,
 * and whether a child inherits it. Values are multiples of four; a closed one comes back in the
 * variant's order ({@link WindowsVariant.HandleReuse}), so a stale value may come to name another
 * file. A file lives while any handle names it. Not thread-safe: the kernel's lock guards it.
 */
final class FakeHandles {
    private static final long FIRST_HANDLE = 0x40;

    /** A live handle: the file it names, and whether a child inherits it. */
    record Handle(FakeFile file, boolean inheritable) {
    }

    private final WindowsVariant.HandleReuse reuse;
    private final Map<Long, Handle> live = new HashMap<>();
    /** Closed handle values, in the order they were closed. */
    private final Deque<Long> freed = new ArrayDeque<>();
    /** The lowest value never handed out. */
    private long fresh = FIRST_HANDLE;

    FakeHandles(WindowsVariant.HandleReuse reuse) {
        this.reuse = reuse;
    }

    /** A new handle on {@code file}, at the value the reuse order gives. */
    long open(FakeFile file, boolean inheritable) {
        long h = switch (reuse) {
            case LOWEST_FIRST -> freed.stream().min(Long::compare).orElse(fresh);
            case MOST_RECENT_FIRST -> freed.isEmpty() ? fresh : freed.peekLast();
            case LEAST_RECENT_FIRST -> freed.isEmpty() ? fresh : freed.peekFirst();
        };
        if (h == fresh) {
            fresh += 4;
        } else {
            freed.remove(h);
        }
        file.retain();
        live.put(h, new Handle(file, inheritable));
        return h;
    }

    /** Closes {@code handle}; false when it was not live. */
    boolean close(long handle) {
        Handle h = live.remove(handle);
        if (h == null) {
            return false;
        }
        freed.addLast(handle);
        h.file().release();
        return true;
    }

    /** Sets whether a child inherits {@code handle} ({@code SetHandleInformation}); false when it is not live. */
    boolean setInheritable(long handle, boolean inheritable) {
        Handle h = live.get(handle);
        if (h == null) {
            return false;
        }
        live.put(handle, new Handle(h.file(), inheritable));
        return true;
    }

    /** The live handle {@code value}, or null. */
    Handle get(long value) {
        return live.get(value);
    }

    /** The file {@code handle} names, or null when it is not a live handle. */
    FakeFile fileOf(long handle) {
        Handle h = live.get(handle);
        return h == null ? null : h.file();
    }

    /** Every live handle, by value. */
    Map<Long, Handle> all() {
        return Collections.unmodifiableMap(live);
    }

    /** Closes every handle: the process has ended. */
    void closeAll() {
        for (Long h : new ArrayList<>(live.keySet())) {
            close(h);
        }
    }
}
