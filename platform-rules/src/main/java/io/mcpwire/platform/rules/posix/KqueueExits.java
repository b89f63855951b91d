package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.rules.NativeMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalLong;

/**
 * macOS's wait for other processes' exits: one {@code kqueue} holding an {@code EVFILT_PROC}
 * filter with {@code NOTE_EXIT} per process, and an {@code EVFILT_READ} filter on a self-pipe that
 * {@link Wait#wake()} writes, waited on in one {@code kevent}. The queue and the pipe are above
 * fd 2 and close-on-exec.
 */
final class KqueueExits implements ProcessExits {
    /** {@code struct kevent} on 64-bit macOS: {@code uintptr_t ident; int16_t filter; uint16_t flags; uint32_t fflags; intptr_t data; void *udata}. */
    static final int KEVENT_SIZE = 32;
    static final short EVFILT_READ = -1;
    static final short EVFILT_PROC = -5;
    static final short EV_ADD = 0x0001;
    static final short EV_ERROR = 0x4000;
    static final int NOTE_EXIT = 0x80000000;
    private static final int ESRCH = 3;

    private final PosixLib posix;

    KqueueExits(PosixLib posix) {
        this.posix = posix;
    }

    /** One {@code struct kevent}, as its fields are laid out in native byte order. */
    record Kevent(long ident, short filter, short flags, int fflags, long data) {
        byte[] bytes() {
            ByteBuffer b = ByteBuffer.allocate(KEVENT_SIZE).order(ByteOrder.nativeOrder());
            b.putLong(0, ident).putShort(8, filter).putShort(10, flags).putInt(12, fflags).putLong(16, data);
            return b.array(); // udata stays zero
        }

        static Kevent of(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
            return new Kevent(b.getLong(0), b.getShort(8), b.getShort(10), b.getInt(12), b.getLong(16));
        }
    }

    @Override
    public Wait watch(long... pids) throws DescriptorException {
        SelfPipe wake = SelfPipe.open(posix, "pipe() for the wake-up of a wait on process exits", -1);
        int queue = -1;
        boolean made = false;
        try {
            queue = openQueue();
            NativeMemory change = posix.libc().allocate(KEVENT_SIZE);
            add(queue, change, new Kevent(wake.readEnd(), EVFILT_READ, EV_ADD, 0, 0), "the wake-up pipe " + wake.readEnd());
            OptionalLong gone = OptionalLong.empty();
            for (long pid : pids) {
                if (!add(queue, change, new Kevent(pid, EVFILT_PROC, EV_ADD, NOTE_EXIT, 0), "EVFILT_PROC NOTE_EXIT " + pid)
                        && gone.isEmpty()) {
                    gone = OptionalLong.of(pid);
                }
            }
            KqueueWait wait = new KqueueWait(queue, gone, wake);
            made = true;
            return wait;
        } finally {
            if (!made) { // whatever failed, nothing is left open
                if (queue >= 0) {
                    posix.libc().close(queue);
                }
                wake.close();
            }
        }
    }

    /** A new queue, moved to a close-on-exec descriptor above fd 2 (a queue is not close-on-exec by itself). */
    private int openQueue() throws DescriptorException {
        int fd = posix.check(posix.libc().kqueue(), "kqueue()", -1);
        try {
            return posix.check(posix.libc().fcntl(fd, posix.constants().fDupfdCloexec(), 3),
                    "fcntl(" + fd + ", F_DUPFD_CLOEXEC, 3)", fd);
        } finally {
            posix.libc().close(fd);
        }
    }

    /**
     * Adds {@code filter} to the queue; false when it names a process that is gone already (ESRCH),
     * which has so ended. Any other refusal names {@code what}.
     */
    private boolean add(int queue, NativeMemory change, Kevent filter, String what) throws DescriptorException {
        change.write(0, filter.bytes(), 0, KEVENT_SIZE);
        while (posix.libc().kevent(queue, change, 1, null, 0) < 0) {
            int errno = posix.libc().errno();
            if (errno == ESRCH && filter.filter() == EVFILT_PROC) {
                return false;
            }
            if (errno != PosixConstants.EINTR) {
                throw posix.error("kevent(" + queue + ", EV_ADD " + what + ")", -1, errno);
            }
        }
        return true;
    }

    /** One wait: its queue, the first process gone before it opened, and its self-pipe. */
    private final class KqueueWait extends SelfPipeWait {
        private final int queue;
        private final OptionalLong gone;
        private final NativeMemory event;

        KqueueWait(int queue, OptionalLong gone, SelfPipe wake) {
            super(KqueueExits.this.posix, wake);
            this.queue = queue;
            this.gone = gone;
            this.event = posix.libc().allocate(KEVENT_SIZE);
        }

        @Override
        public OptionalLong await() throws DescriptorException {
            if (gone.isPresent()) {
                return gone;
            }
            int n;
            while ((n = posix.libc().kevent(queue, null, 0, event, 1)) < 0) {
                int errno = posix.libc().errno();
                if (errno != PosixConstants.EINTR) {
                    throw posix.error("kevent(" + queue + ") waiting for exits", -1, errno);
                }
            }
            byte[] raw = new byte[KEVENT_SIZE];
            event.read(0, raw, 0, KEVENT_SIZE);
            Kevent e = Kevent.of(raw);
            if (n == 0 || (e.flags() & EV_ERROR) != 0) {
                throw new DescriptorException("kevent(" + queue + ") waiting for exits", -1, n == 0 ? 0 : (int) e.data(),
                        n == 0 ? "returned no event with no timeout" : "an event with EV_ERROR " + e.data() + " for " + e.ident());
            }
            if (e.filter() == EVFILT_READ && e.ident() == pipe.readEnd()) {
                return OptionalLong.empty();
            }
            if (e.filter() == EVFILT_PROC && (e.fflags() & NOTE_EXIT) != 0) {
                return OptionalLong.of(e.ident());
            }
            throw new DescriptorException("kevent(" + queue + ") waiting for exits", -1, 0,
                    "an event of filter " + e.filter() + " for " + e.ident() + " that was not asked for");
        }

        @Override
        protected void closeOwn() {
            posix.libc().close(queue);
        }
    }
}
