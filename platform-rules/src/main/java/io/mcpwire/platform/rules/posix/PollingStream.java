package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.rules.ChunkedStream;
import io.mcpwire.platform.rules.NativeMemory;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.AsynchronousCloseException;
import java.util.OptionalInt;

/**
 * Reads and writes one descriptor with native buffers. Every blocking step is a {@code poll} on
 * the descriptor and on a self-pipe, so {@link #wakeUp()} unblocks a pending read or write at
 * once ({@code close} from another thread would not). Writes go out in pieces of at most
 * {@code PIPE_BUF} bytes after {@code poll} says the descriptor is writable, so no write can
 * block beyond the reach of a wake-up.
 *
 * <p>Where the descriptor is the write end of a pipe on Linux, writes go instead through a
 * non-blocking description of the stream's own ({@link OwnPipeWrites}): each takes what fits, up
 * to a chunk, and only a write that finds the pipe full waits in {@code poll}. So an answer to a
 * client that keeps up costs one call, not two. That description holds the pipe open until
 * {@link #close()}.
 */
final class PollingStream extends ChunkedStream {
    private static final int POLLFD_SIZE = 8; // int fd; short events; short revents

    private final PosixLib posix;
    private final int fd;
    /** Written by {@link #wakeUp()}; every blocking step polls it beside the descriptor. */
    private final SelfPipe wake;
    /** The pipe's write end on a non-blocking description of this stream's own, where there is one. */
    private final OptionalInt ownWrites;
    private final NativeMemory readPoll;
    private final NativeMemory writePoll;
    private NativeMemory readBuffer;
    private NativeMemory writeBuffer;

    private PollingStream(PosixLib posix, int fd, SelfPipe wake, OptionalInt ownWrites) {
        this.posix = posix;
        this.ownWrites = ownWrites;
        this.readPoll = posix.libc().allocate(2L * POLLFD_SIZE);
        this.writePoll = posix.libc().allocate(2L * POLLFD_SIZE);
        this.fd = fd;
        this.wake = wake;
        prepare(readPoll, PosixConstants.POLLIN);
        prepare(writePoll, PosixConstants.POLLOUT);
    }

    /** Fills both pollfd entries once: fd with {@code events}, and the self-pipe with POLLIN. */
    private void prepare(NativeMemory pollfds, short events) {
        pollfds.putInt(0, fd);
        pollfds.putInt(4, eventsWord(events));
        pollfds.putInt(POLLFD_SIZE, wake.readEnd());
        pollfds.putInt(POLLFD_SIZE + 4, eventsWord(PosixConstants.POLLIN));
    }

    /** {@code short events; short revents} as one int with revents zero, in native byte order. */
    static int eventsWord(short events) {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? events & 0xFFFF : (events & 0xFFFF) << 16;
    }

    /**
     * Opens a stream on {@code fd} with its own self-pipe, both ends above fd 2 and close-on-exec,
     * and, for the write end of a pipe on Linux, its own non-blocking description.
     */
    static PollingStream open(PosixLib posix, int fd) throws DescriptorException {
        SelfPipe wake = SelfPipe.open(posix, "pipe() for the wake-up of fd " + fd, fd);
        OptionalInt ownWrites = OptionalInt.empty();
        try {
            ownWrites = OwnPipeWrites.open(posix, fd);
            return new PollingStream(posix, fd, wake, ownWrites);
        } catch (RuntimeException e) {
            wake.close(); // nothing is left open
            ownWrites.ifPresent(posix.libc()::close);
            throw e;
        }
    }

    @Override
    public int descriptor() {
        return fd;
    }

    @Override
    protected int readChunk(int max) throws IOException {
        if (readBuffer == null) {
            readBuffer = posix.libc().allocate(CHUNK);
        }
        while (true) {
            awaitReady(readPoll, PosixConstants.POLLIN, "read");
            long n = posix.libc().read(fd, readBuffer, max);
            if (n >= 0) {
                return n == 0 ? -1 : (int) n;
            }
            int errno = posix.libc().errno();
            if (errno == posix.constants().eConnReset()) {
                return -1; // a socket's peer is gone (it closed with data unread): no more input, as after a close
            }
            if (errno != PosixConstants.EINTR && errno != posix.constants().eAgain()) {
                throw posix.error("read(" + fd + ")", fd, errno);
            }
        }
    }

    @Override
    protected void copyOut(byte[] buffer, int offset, int n) {
        readBuffer.read(0, buffer, offset, n);
    }

    @Override
    protected void copyIn(byte[] buffer, int offset, int n) {
        if (writeBuffer == null) {
            writeBuffer = posix.libc().allocate(CHUNK);
        }
        writeBuffer.write(0, buffer, offset, n);
    }

    @Override
    protected int writeSome(int from, int n) throws IOException {
        long written;
        if (ownWrites.isPresent()) {
            written = posix.libc().write(ownWrites.getAsInt(), writeBuffer, from, n);
        } else {
            awaitReady(writePoll, PosixConstants.POLLOUT, "write");
            written = posix.libc().write(fd, writeBuffer, from, Math.min(n, posix.constants().pipeBuf()));
        }
        if (written >= 0) {
            return (int) written;
        }
        int errno = posix.libc().errno();
        if (errno == PosixConstants.EPIPE) {
            throw new DescriptorException("write(" + fd + ")", fd, errno, "EPIPE (Broken pipe: the reader has gone)");
        }
        if (errno == posix.constants().eAgain() && ownWrites.isPresent()) {
            awaitReady(writePoll, PosixConstants.POLLOUT, "write"); // the pipe is full: wait for room
            return 0;
        }
        if (errno != PosixConstants.EINTR && errno != posix.constants().eAgain()) {
            throw posix.error("write(" + fd + ")", fd, errno);
        }
        return 0;
    }

    /** Polls fd for {@code events} and the self-pipe for a wake-up; throws when woken. */
    private void awaitReady(NativeMemory pollfds, short events, String op) throws IOException {
        pollfds.putInt(4, eventsWord(events)); // clears revents
        pollfds.putInt(POLLFD_SIZE + 4, eventsWord(PosixConstants.POLLIN));
        while (true) {
            int r = posix.poll(pollfds, 2);
            if (r > 0) {
                break;
            }
            int errno = posix.libc().errno();
            if (r < 0 && errno != PosixConstants.EINTR && errno != posix.constants().eAgain()) {
                throw posix.error("poll(" + fd + ") before " + op, fd, errno);
            }
        }
        if (pollfds.getShort(POLLFD_SIZE + 6) != 0) {
            throw new AsynchronousCloseException();
        }
        if ((pollfds.getShort(6) & PosixConstants.POLLNVAL) != 0) {
            throw posix.error(op + "(" + fd + ")", fd, PosixConstants.EBADF);
        }
    }

    /** Writes to the self-pipe, once; a freed stream's pipe is closed and never touched. */
    @Override
    protected void interruptCalls() {
        wake.wake();
    }

    @Override
    protected void freeResources() {
        wake.close();
        ownWrites.ifPresent(posix.libc()::close);
    }

    @Override
    public String toString() {
        return "PollingStream[fd " + fd + "]";
    }
}
