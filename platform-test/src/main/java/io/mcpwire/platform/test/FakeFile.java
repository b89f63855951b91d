package io.mcpwire.platform.test;

import io.mcpwire.platform.FileIdentity;
import java.io.ByteArrayOutputStream;
import java.nio.channels.AsynchronousCloseException;

/** One open file in the fake's table, shared by every descriptor that refers to it. */
final class FakeFile {
    /**
     * What the file is; {@code THREAD}, {@code EVENT} and {@code JOB} are kernel objects of another
     * type, named by handles of the same table.
     */
    enum Role { PIPE_READ, PIPE_WRITE, NULL_DEVICE, SINK, FILE, THREAD, EVENT, JOB }

    /** Every open of the null device is the same file. */
    static final long NULL_INODE = 1;

    final long id;
    final long inode;
    final Role role;
    final FileIdentity.Kind kind;
    final String label;
    final Pipe pipe;
    final ByteArrayOutputStream sink;
    final byte[] content;
    int position;
    int refs;
    /**
     * Windows: the thread inside a synchronous {@code ReadFile} or {@code WriteFile} on this file
     * object, which holds the object's lock for as long as the call blocks, so that another call
     * on it (I/O or a query such as {@code GetFileType}) waits; null when none. Shared by every
     * handle and every child that names the file.
     */
    Thread ioOwner;
    /** A {@code THREAD} object's thread; null for a file. */
    Thread thread;

    private FakeFile(long id, long inode, Role role, FileIdentity.Kind kind, String label, Pipe pipe,
                     ByteArrayOutputStream sink, byte[] content) {
        this.id = id;
        this.inode = inode;
        this.role = role;
        this.kind = kind;
        this.label = label;
        this.pipe = pipe;
        this.sink = sink;
        this.content = content;
    }

    static FakeFile pipeEnd(long id, Pipe pipe, boolean read, FileIdentity.Kind kind) {
        return new FakeFile(id, pipe.inode, read ? Role.PIPE_READ : Role.PIPE_WRITE, kind,
                pipe.name + (read ? " (read end)" : " (write end)"), pipe, null, null);
    }

    static FakeFile nullDevice(long id, String label) {
        return new FakeFile(id, NULL_INODE, Role.NULL_DEVICE, FileIdentity.Kind.NULL_DEVICE, label, null, null, null);
    }

    static FakeFile sink(long id, long inode, String label, FileIdentity.Kind kind, ByteArrayOutputStream sink) {
        return new FakeFile(id, inode, Role.SINK, kind, label, null, sink, null);
    }

    /** A kernel object that is no file: a thread ({@code OpenThread}) or an event another thread of the process opened. */
    static FakeFile object(long id, Role role, String label, Thread thread) {
        FakeFile f = new FakeFile(id, id, role, FileIdentity.Kind.OTHER, label, null, null, null);
        f.thread = thread;
        return f;
    }

    static FakeFile file(long id, String label, byte[] content) {
        return new FakeFile(id, id, Role.FILE, FileIdentity.Kind.FILE, label, null, null, content);
    }

    /** One more descriptor refers to this file; a first reference opens its pipe end. */
    void retain() {
        if (refs++ == 0 && pipe != null) {
            if (role == Role.PIPE_READ) {
                pipe.readers++;
            } else {
                pipe.writers++;
            }
        }
    }

    /** One descriptor less; the last one closes its pipe end. */
    void release() {
        if (--refs == 0 && pipe != null) {
            if (role == Role.PIPE_READ) {
                pipe.readers--;
            } else {
                pipe.writers--;
            }
        }
    }

    /** How a blocking read or write of a pipe waits, and whether its stream was woken meanwhile. */
    interface Wait {
        boolean woken();

        void await();
    }

    boolean canRead() {
        return role == Role.NULL_DEVICE || role == Role.FILE || role == Role.PIPE_READ;
    }

    boolean canWrite() {
        return role == Role.NULL_DEVICE || role == Role.SINK || role == Role.PIPE_WRITE;
    }

    /** Reads up to {@code len} bytes; -1 at end. A pipe waits while it is empty and still written to. */
    int read(byte[] b, int off, int len, Wait wait) throws AsynchronousCloseException {
        switch (role) {
            case FILE: {
                int n = Math.min(len, content.length - position);
                if (n <= 0) {
                    return -1;
                }
                System.arraycopy(content, position, b, off, n);
                position += n;
                return n;
            }
            case PIPE_READ: {
                while (pipe.available() == 0 && pipe.writers > 0 && !wait.woken()) {
                    wait.await();
                }
                if (wait.woken()) {
                    throw new AsynchronousCloseException();
                }
                return pipe.available() == 0 ? -1 : pipe.take(b, off, len);
            }
            default:
                return -1; // the null device
        }
    }

    /**
     * Writes some of {@code len} bytes and says how many; -1 when a pipe has no reader left. A full
     * pipe waits for room.
     */
    int write(byte[] b, int off, int len, Wait wait) throws AsynchronousCloseException {
        if (role == Role.SINK) {
            sink.write(b, off, len);
        } else if (role == Role.PIPE_WRITE) {
            while (pipe.readers > 0 && pipe.free() <= 0 && !wait.woken()) {
                wait.await();
            }
            if (wait.woken()) {
                throw new AsynchronousCloseException();
            }
            if (pipe.readers == 0) {
                return -1;
            }
            int n = (int) Math.min(len, pipe.free());
            pipe.append(b, off, n);
            return n;
        }
        return len; // a sink, or the null device
    }

    FileIdentity identity() {
        boolean writable = role == Role.PIPE_WRITE || role == Role.SINK || (role == Role.NULL_DEVICE && label.contains("write"));
        return new FileIdentity(0, inode, kind, writable);
    }

    @Override
    public String toString() {
        return label;
    }
}
