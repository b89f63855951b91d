package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.rules.NativeMemory;
import java.util.OptionalLong;

/**
 * Linux's wait for other processes' exits: a {@code pidfd_open} descriptor per process, which polls
 * readable once the process has exited (a zombie its parent has not reaped included), polled in
 * one {@code poll} with a self-pipe that {@link Wait#wake()} writes. Every descriptor is above fd 2
 * and close-on-exec.
 */
final class PidfdExits implements ProcessExits {
    private static final int POLLFD_SIZE = 8; // int fd; short events; short revents
    private static final int ENOSYS = 38;
    private static final int ESRCH = 3;

    private final PosixLib posix;

    PidfdExits(PosixLib posix) {
        this.posix = posix;
    }

    @Override
    public Wait watch(long... pids) throws DescriptorException {
        SelfPipe wake = SelfPipe.open(posix, "pipe() for the wake-up of a wait on process exits", -1);
        int[] fds = new int[pids.length];
        int opened = 0;
        boolean made = false;
        try {
            for (; opened < pids.length; opened++) {
                fds[opened] = open(pids[opened]);
            }
            PidfdWait wait = new PidfdWait(pids.clone(), fds, wake);
            made = true;
            return wait;
        } finally {
            if (!made) { // whatever failed, nothing is left open
                for (int i = 0; i < opened; i++) {
                    close(fds[i]);
                }
                wake.close();
            }
        }
    }

    /** A pidfd above fd 2; a process already gone (ESRCH) is -1, ended from the start. */
    private int open(long pid) throws DescriptorException {
        int fd = posix.libc().pidfdOpen((int) pid);
        if (fd < 0) {
            int errno = posix.libc().errno();
            if (errno == ESRCH) {
                return -1;
            }
            String why = errno == ENOSYS ? "ENOSYS (the kernel has no pidfd_open: Linux before 5.3)"
                    : posix.constants().errnoName(errno) + " (" + posix.libc().strerror(errno) + ")";
            throw new DescriptorException("pidfd_open(" + pid + ")", -1, errno, why);
        }
        if (fd > 2) {
            return fd;
        }
        // fd 0, 1 or 2 was closed and this took its number: move it up, so that no stream meets it.
        try {
            return posix.check(posix.libc().fcntl(fd, posix.constants().fDupfdCloexec(), 3),
                    "fcntl(" + fd + ", F_DUPFD_CLOEXEC, 3)", fd);
        } finally {
            posix.libc().close(fd);
        }
    }

    private void close(int fd) {
        if (fd >= 0) {
            posix.libc().close(fd);
        }
    }

    /** One wait: its pidfds (-1 for a process gone before it opened), its self-pipe, and the poll set over them. */
    private final class PidfdWait extends SelfPipeWait {
        private final long[] pids;
        private final int[] fds;
        private final NativeMemory pollfds;

        PidfdWait(long[] pids, int[] fds, SelfPipe wake) {
            super(PidfdExits.this.posix, wake);
            this.pids = pids;
            this.fds = fds;
            this.pollfds = posix.libc().allocate((long) (fds.length + 1) * POLLFD_SIZE);
        }

        @Override
        public OptionalLong await() throws DescriptorException {
            for (int i = 0; i < fds.length; i++) {
                if (fds[i] < 0) {
                    return OptionalLong.of(pids[i]);
                }
            }
            int in = PollingStream.eventsWord(PosixConstants.POLLIN);
            pollfds.putInt(0, pipe.readEnd());
            pollfds.putInt(4, in);
            for (int i = 0; i < fds.length; i++) {
                pollfds.putInt((i + 1L) * POLLFD_SIZE, fds[i]);
                pollfds.putInt((i + 1L) * POLLFD_SIZE + 4, in); // clears revents
            }
            while (posix.poll(pollfds, fds.length + 1) <= 0) {
                int errno = posix.libc().errno();
                if (errno != PosixConstants.EINTR && errno != posix.constants().eAgain()) {
                    throw posix.error("poll() of " + fds.length + " pidfds", -1, errno);
                }
            }
            if (pollfds.getShort(6) != 0) {
                return OptionalLong.empty();
            }
            for (int i = 0; i < fds.length; i++) {
                if (pollfds.getShort((i + 1L) * POLLFD_SIZE + 6) != 0) {
                    return OptionalLong.of(pids[i]);
                }
            }
            throw new DescriptorException("poll() of " + fds.length + " pidfds", -1, 0, "ready, yet no descriptor had an event");
        }

        @Override
        protected void closeOwn() {
            for (int fd : fds) {
                PidfdExits.this.close(fd);
            }
        }
    }
}
