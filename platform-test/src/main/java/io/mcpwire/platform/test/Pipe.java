package io.mcpwire.platform.test;

import java.io.ByteArrayOutputStream;

/** A one-way byte channel with counted ends; the fake's model of a pipe or a socket direction. */
final class Pipe {
    final String name;
    final long inode;
    final long capacity;
    private byte[] data = new byte[1024];
    private int start;
    private int end;
    /** Live write ends: open files with references, plus the client's end while open. */
    int writers;
    /** Live read ends, likewise. */
    int readers;
    /** Where a reader outside the process takes every byte as it is written, once it reads; null until then. */
    private ByteArrayOutputStream readBy;

    Pipe(String name, long inode, long capacity) {
        this.name = name;
        this.inode = inode;
        this.capacity = capacity;
    }

    int available() {
        return end - start;
    }

    long free() {
        return capacity - available();
    }

    /** From now on a reader outside the process takes what the pipe holds, and each byte as it comes, into {@code out}. */
    void readContinuouslyInto(ByteArrayOutputStream out) {
        out.writeBytes(takeAll());
        readBy = out;
    }

    void append(byte[] b, int off, int len) {
        if (readBy != null) {
            readBy.write(b, off, len);
            return;
        }
        if (end + len > data.length) {
            int size = available();
            byte[] grown = size + len > data.length ? new byte[Math.max(data.length * 2, size + len)] : data;
            System.arraycopy(data, start, grown, 0, size);
            data = grown;
            start = 0;
            end = size;
        }
        System.arraycopy(b, off, data, end, len);
        end += len;
    }

    int take(byte[] b, int off, int len) {
        int n = Math.min(len, available());
        System.arraycopy(data, start, b, off, n);
        start += n;
        if (start == end) {
            start = 0;
            end = 0;
        }
        return n;
    }

    byte[] takeAll() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(available());
        out.write(data, start, available());
        start = 0;
        end = 0;
        return out.toByteArray();
    }
}
