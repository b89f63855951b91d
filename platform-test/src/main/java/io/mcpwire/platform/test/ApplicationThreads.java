package io.mcpwire.platform.test;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;

/**
 * The application's threads that block in I/O beside a claim on a fake Windows process: a write
 * through {@code System.err} (the handle value it captured at start-up, with {@code WriteFile},
 * which holds the file object's lock while it blocks), and a native {@code _write} or
 * {@code _read} (HotSpot's own output, a JNI library's {@code fprintf} or {@code fgets(stdin)}),
 * which holds the C runtime's lock of its descriptor and, being a synchronous {@code WriteFile} or
 * {@code ReadFile} underneath, the file object's lock while it blocks. Each makes one call on
 * whatever its handle or descriptor names when it starts, and ends when that call returns. None is
 * a platform call: nothing is logged. What a native read takes from the stdin wire is kept
 * ({@link KernelThreads#takenFromStdinWire}).
 *
 * <p>Threads: each starts a daemon thread that runs under the kernel's lock but while it waits.
 */
final class ApplicationThreads {
    /** What a blocked writer writes: twice what a pipe holds, so that it blocks on a pipe nobody reads. */
    private static final int WRITE = 2 * FakeKernel.PIPE_CAPACITY;
    /** What a native read asks for at most. */
    private static final int READ = 4096;

    private ApplicationThreads() {
    }

    /** A write of {@code System.err} as the JVM built it (through its start-up handle), started now; returns once it blocks or has ended. */
    static Thread systemErrWrite(FakeKernel k, String name) {
        return start(k, name, () -> {
            try {
                JvmHandles.jvmWrite(k, 2, new byte[WRITE], 0, WRITE);
            } catch (IOException e) {
                // the handle names nothing writable now, or the process ended under it
            }
        });
    }

    /** A native {@code _write(fd)}, started now; returns once it blocks or has ended. */
    static Thread nativeWrite(FakeKernel k, int fd, String name) {
        return start(k, name, () -> withCrtLock(k, "_write(" + fd + ")", fd, () -> {
            FakeFile f = k.crt().file(fd);
            byte[] bytes = new byte[WRITE];
            for (int done = 0; f != null && f.canWrite() && done < bytes.length; ) {
                int from = done;
                int n = k.synchronousIo(f, "WriteFile", () -> f.write(bytes, from, bytes.length - from, k.uncancelled()));
                if (n < 0) {
                    break;
                }
                done += n;
            }
        }));
    }

    /**
     * A native {@code _read(fd)}, started now; returns once it blocks or has ended. Its
     * {@code ReadFile} is pending on the file fd names, which {@code CancelIoEx} on any handle of
     * that file ends; cancelled, {@code _read} returns -1 and the thread ends.
     */
    static Thread nativeRead(FakeKernel k, int fd, String name) {
        return start(k, name, () -> withCrtLock(k, "_read(" + fd + ")", fd, () -> {
            FakeCrt crt = k.crt();
            FakeFile f = crt.file(fd);
            if (f == null || !f.canRead()) {
                return;
            }
            Thread me = Thread.currentThread();
            byte[] into = new byte[READ];
            crt.pendingReads.put(f, me);
            try {
                int n = k.synchronousIo(f, "ReadFile", () -> f.read(into, 0, into.length, crt.waitUnlessCancelled(k)));
                if (n > 0 && f == k.wireIn) {
                    k.threads.takenFromStdinWire.write(into, 0, n);
                }
            } finally {
                crt.pendingReads.remove(f, me);
                crt.cancelled.remove(me);
            }
        }));
    }

    /** One blocking step under the kernel's lock. */
    @FunctionalInterface
    private interface Body {
        void run() throws AsynchronousCloseException;
    }

    /** Takes the C runtime's lock of fd (waiting for it as the runtime does), runs {@code body}, lets go. */
    private static void withCrtLock(FakeKernel k, String call, int fd, Body body) {
        k.locked(() -> {
            k.threads.awaitLock(call, () -> k.crt().crtLocks.get(fd));
            k.crt().crtLocks.put(fd, Thread.currentThread());
            try {
                body.run();
            } catch (AsynchronousCloseException e) {
                // cancelled (CancelIoEx, CancelSynchronousIo): the call returns -1
            } finally {
                k.crt().crtLocks.remove(fd);
                k.changed.signalAll();
            }
            return null;
        });
    }

    /** Starts {@code body} on a daemon thread the kernel knows of, and waits until it blocks or has ended. */
    private static Thread start(FakeKernel k, String name, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } finally {
                k.locked(() -> {
                    k.threads.ended(Thread.currentThread());
                    return null;
                });
            }
        }, name);
        t.setDaemon(true);
        k.locked(() -> {
            k.threads.started(t);
            t.start();
            k.threads.awaitBlockedOrEnded(t);
            return null;
        });
        return t;
    }
}
