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
 * file. A file lives while any handle names it. Under {@link WindowsVariant.HandleReuse#PER_CPU_LIFO}
 * a freed value goes on the free list of the processor the closing thread runs on, and a new
 * handle takes the top of its own processor's list (the other's only when its own is empty). A
 * handle marked {@code HANDLE_FLAG_PROTECT_FROM_CLOSE} is not closed. Not thread-safe: the
 * kernel's lock guards it.
 */
final class FakeHandles {
    private static final long FIRST_HANDLE = 0x40;

    /** A live handle: the file it names, whether a child inherits it, and whether {@code CloseHandle} leaves it open. */
    record Handle(FakeFile file, boolean inheritable, boolean protectFromClose) {
        Handle(FakeFile file, boolean inheritable) {
            this(file, inheritable, false);
        }
    }

    /** What {@code CloseHandle} did. */
    enum Closed { CLOSED, NOT_LIVE, PROTECTED }

    private final WindowsVariant.HandleReuse reuse;
    private final Map<Long, Handle> live = new HashMap<>();
    /** Closed handle values, in the order they were closed. */
    private final Deque<Long> freed = new ArrayDeque<>();
    /** {@link WindowsVariant.HandleReuse#PER_CPU_LIFO}: each processor's free list, its top last. */
    private final Map<Integer, Deque<Long>> freedByCpu = new HashMap<>();
    /** The lowest value never handed out. */
    private long fresh = FIRST_HANDLE;

    /** The processor the calling thread runs on. */
    private final java.util.function.IntSupplier currentCpu;

    FakeHandles(WindowsVariant.HandleReuse reuse, java.util.function.IntSupplier currentCpu) {
        this.reuse = reuse;
        this.currentCpu = currentCpu;
    }

    /** A new handle on {@code file}, at the value the reuse order gives, made on the calling thread's processor. */
    long open(FakeFile file, boolean inheritable) {
        return open(file, inheritable, currentCpu.getAsInt());
    }

    /** A new handle on {@code file}, at the value the reuse order gives, made by a thread on processor {@code cpu}. */
    long open(FakeFile file, boolean inheritable, int cpu) {
        long h = switch (reuse) {
            case LOWEST_FIRST -> freed.stream().min(Long::compare).orElse(fresh);
            case MOST_RECENT_FIRST -> freed.isEmpty() ? fresh : freed.peekLast();
            case LEAST_RECENT_FIRST -> freed.isEmpty() ? fresh : freed.peekFirst();
            case PER_CPU_LIFO -> perCpu(cpu);
        };
        if (h == fresh) {
            fresh += 4;
        } else {
            freed.remove(h);
            freedByCpu.values().forEach(list -> list.remove(h));
        }
        file.retain();
        live.put(h, new Handle(file, inheritable));
        return h;
    }

    /** The top of {@code cpu}'s free list, else a fresh value. */
    private long perCpu(int cpu) {
        Deque<Long> own = freedByCpu.get(cpu);
        return own != null && !own.isEmpty() ? own.peekLast() : fresh;
    }

    /** Closes {@code handle} on the calling thread's processor; false when it was not live or is protected. */
    boolean close(long handle) {
        return close(handle, currentCpu.getAsInt()) == Closed.CLOSED;
    }

    /** Closes {@code handle}, made by a thread on processor {@code cpu}, unless it is protected from close. */
    Closed close(long handle, int cpu) {
        Handle h = live.get(handle);
        if (h == null) {
            return Closed.NOT_LIVE;
        }
        if (h.protectFromClose()) {
            return Closed.PROTECTED;
        }
        live.remove(handle);
        freed.addLast(handle);
        freedByCpu.computeIfAbsent(cpu, c -> new ArrayDeque<>()).addLast(handle);
        h.file().release();
        return Closed.CLOSED;
    }

    /** Sets {@code HANDLE_FLAG_PROTECT_FROM_CLOSE} on {@code handle}; false when it is not live. */
    boolean setProtected(long handle, boolean protect) {
        Handle h = live.get(handle);
        if (h == null) {
            return false;
        }
        live.put(handle, new Handle(h.file(), h.inheritable(), protect));
        return true;
    }

    /** Sets whether a child inherits {@code handle} ({@code SetHandleInformation}); false when it is not live. */
    boolean setInheritable(long handle, boolean inheritable) {
        Handle h = live.get(handle);
        if (h == null) {
            return false;
        }
        live.put(handle, new Handle(h.file(), inheritable, h.protectFromClose()));
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
            setProtected(h, false);
            close(h);
        }
    }
}
