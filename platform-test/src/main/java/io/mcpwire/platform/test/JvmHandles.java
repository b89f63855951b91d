package io.mcpwire.platform.test;

import java.io.IOException;

/**
 * The JVM's own streams on a fake Windows process: {@code System.in}, {@code System.out} and
 * {@code System.err} read and write the handle values they captured at start-up, whatever those
 * name now, with synchronous {@code ReadFile}/{@code WriteFile} that hold the file object's lock
 * while they block. Not platform calls: nothing is logged.
 */
final class JvmHandles {
    private JvmHandles() {
    }

    /**
     * A write by the JVM's own stream {@code fd} on Windows, through the handle it captured at
     * start: whatever that value names now, which may be another file once the handle was closed
     * and its value reused. Not a platform call: nothing is logged.
     */
    static void jvmWrite(FakeKernel kernel, int fd, byte[] b, int off, int len) throws IOException {
        kernel.lock.lock();
        try {
            for (int done = 0; done < len; ) {
                FakeFile f = jvmFile(kernel, fd);
                int from = off + done;
                int left = len - done;
                int n = f.canWrite() ? kernel.synchronousIo(f, "WriteFile", () -> f.write(b, from, left, kernel.uncancelled())) : -1;
                if (n < 0) {
                    throw new IOException("WriteFile on the JVM's handle for fd " + fd + " failed (" + f.label + ")");
                }
                done += n;
                kernel.changed.signalAll();
            }
        } finally {
            kernel.lock.unlock();
        }
    }

    /**
     * A read by the JVM's own {@code System.in} on Windows, through its handle from start: a
     * {@code ReadFile} like any other, pending on its file while it waits (so a query on that pipe
     * would hang behind it) and ended by {@code CancelIoEx} with {@code ERROR_OPERATION_ABORTED}.
     */
    static int jvmRead(FakeKernel kernel, byte[] b, int off, int len) throws IOException {
        kernel.lock.lock();
        FakeCrt crt = kernel.crt();
        Thread me = Thread.currentThread();
        FakeFile f = null;
        try {
            f = jvmFile(kernel, 0);
            if (!f.canRead()) {
                return -1;
            }
            crt.pendingReads.put(f, me);
            FakeFile file = f;
            int n = kernel.synchronousIo(f, "ReadFile", () -> file.read(b, off, len, crt.waitUnlessCancelled(kernel)));
            kernel.changed.signalAll();
            return n;
        } catch (java.nio.channels.AsynchronousCloseException e) {
            throw new IOException("ReadFile on the JVM's handle for fd 0 failed: ERROR_OPERATION_ABORTED "
                    + "(the I/O operation has been aborted)");
        } finally {
            if (f != null) {
                crt.pendingReads.remove(f, me);
            }
            crt.cancelled.remove(me);
            kernel.lock.unlock();
        }
    }

    private static FakeFile jvmFile(FakeKernel kernel, int fd) throws IOException {
        FakeFile f = kernel.crt().handles.fileOf(kernel.crt().jvmHandle(fd));
        if (f == null) {
            throw new IOException("the JVM's handle for fd " + fd + " is closed (ERROR_INVALID_HANDLE)");
        }
        return f;
    }

}
