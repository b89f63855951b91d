package io.mcpwire.platform.test;

import io.mcpwire.platform.FileIdentity;
import java.io.ByteArrayOutputStream;

/** One open file in the fake's table, shared by every descriptor that refers to it. */
final class FakeFile {
    enum Role { PIPE_READ, PIPE_WRITE, NULL_DEVICE, SINK, FILE }

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

    FileIdentity identity() {
        boolean writable = role == Role.PIPE_WRITE || role == Role.SINK || (role == Role.NULL_DEVICE && label.contains("write"));
        return new FileIdentity(0, inode, kind, writable);
    }

    @Override
    public String toString() {
        return label;
    }
}
