package io.mcpwire.platform.test;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The JVM side of a {@link FakeProcess}, for running a whole server inside a test: while
 * installed, {@code System.in} reads fd 0 and {@code System.out} and {@code System.err} write
 * fd 1 and fd 2 of the fake, each call going to whatever the descriptor refers to at that moment,
 * as a POSIX JVM's streams do. A print before the claim reaches the client's pipe; during the
 * claim it lands where the claim diverted fd 1. The JVM's own streams come back at {@link #exit()}.
 *
 * <p>On a fake {@link FakeProcess.Builder#windows() built for Windows} the streams are bound, as
 * a Windows JVM's are, to the OS handles they had at start, not to descriptors: once the C
 * runtime's {@code _dup2} closes such a handle they write to nothing, or to whatever file its
 * reused value names then, which is why the claim swaps them. A
 * {@link FakeProcess.Builder#detachedJvmStreams() Windows-style} POSIX fake has the claim swap them too.
 */
public final class FakeJvm {
    private final FakeProcess process;
    private final InputStream savedIn = System.in;
    private final PrintStream savedOut = System.out;
    private final PrintStream savedErr = System.err;
    private final PrintStream out;
    private final PrintStream err;
    private boolean exited;

    private FakeJvm(FakeProcess process) {
        this.process = process;
        // As the JDK builds them: a small buffer, flushed at each line and each array write.
        this.out = new PrintStream(new BufferedOutputStream(output(1), 128), true, StandardCharsets.UTF_8);
        this.err = new PrintStream(new BufferedOutputStream(output(2), 128), true, StandardCharsets.UTF_8);
    }

    /**
     * Points the JVM's standard streams at {@code process}'s descriptors until {@link #exit()}.
     * {@code java.util.logging}'s console handler is made first, on the real stderr; any other
     * logging handler created meanwhile keeps the stream it found, the fake's fd 2.
     */
    public static FakeJvm install(FakeProcess process) {
        settleConsoleLogging();
        FakeJvm jvm = new FakeJvm(process);
        System.setIn(new BufferedInputStream(jvm.input()));
        System.setOut(jvm.out);
        System.setErr(jvm.err);
        return jvm;
    }

    /**
     * Has {@code java.util.logging}, where it is present, make its console handler now: the handler
     * takes {@code System.err} as it is when first used, and one first used under a fake would write
     * to the fake's stderr for the rest of the run (a pipe nobody reads, in some cases: a hang).
     */
    private static void settleConsoleLogging() {
        if (ModuleLayer.boot().findModule("java.logging").isPresent()) {
            java.util.logging.Logger.getLogger("").getHandlers();
        }
    }

    /**
     * Waits up to {@code timeout} for the descriptor table to equal {@code expected}, for example
     * the table from before a claim, to know that the claim was released.
     *
     * @return whether it did
     */
    public boolean awaitTable(TableSnapshot expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        process.kernel.lock.lock();
        try {
            while (!process.snapshot().equals(expected)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                process.kernel.changed.await(left, TimeUnit.NANOSECONDS);
            }
            return true;
        } finally {
            process.kernel.lock.unlock();
        }
    }

    /**
     * Starts a child as {@code builder} would, without running anything: each stream redirected
     * with {@code Redirect.INHERIT} (as {@code inheritIO()} sets all three) gets what the JVM passes
     * for it. On POSIX that is the descriptor itself. On Windows it is the handle value the JVM's
     * own stream captured at start-up, whatever that value names now, made inheritable for the
     * call, as the JDK's {@code ProcessImpl} does; the child also inherits every inheritable handle
     * but the slots' own. Other redirects give it a pipe or file of its own, which reaches nothing
     * of the process's.
     */
    public FakeChild startChild(ProcessBuilder builder) {
        boolean[] inherit = {
            builder.redirectInput() == ProcessBuilder.Redirect.INHERIT,
            builder.redirectOutput() == ProcessBuilder.Redirect.INHERIT,
            builder.redirectError() == ProcessBuilder.Redirect.INHERIT,
        };
        boolean merged = builder.redirectErrorStream();
        synchronized (process.kernel.threads.childStartMonitor) { // ProcessImpl.create is static synchronized
            return startChildLocked(inherit, merged);
        }
    }

    private FakeChild startChildLocked(boolean[] inherit, boolean merged) {
        return process.kernel.locked(() -> {
            if (process.kernel.model instanceof FakeCrt crt) {
                FakeCrt.ChildReach r = crt.javaChild(inherit, merged);
                return new FakeChild(process.kernel, r.stdio(), r.reach(), r.hidden());
            }
            // POSIX: the redirected standard descriptors, and every other descriptor not close-on-exec.
            List<FakeFile> stdio = new ArrayList<>();
            Set<FakeFile> reach = new HashSet<>();
            for (int fd = 0; fd < 3; fd++) {
                int from = fd == 2 && merged ? 1 : fd;
                stdio.add(inherit[from] ? process.kernel.model.file(from) : null);
            }
            stdio.stream().filter(Objects::nonNull).forEach(reach::add);
            process.kernel.model.inherited().stream().filter(fd -> fd > 2).map(process.kernel.model::file).forEach(reach::add);
            return new FakeChild(process.kernel, Collections.unmodifiableList(stdio), reach);
        });
    }

    /**
     * Windows: an application thread writes {@code System.err} (through its start-up handle) until
     * it blocks on fd 2's pipe, which the host does not read ({@link StderrMode#UNREAD_PIPE}), holding
     * that pipe's file-object lock from then on; returns once it is blocked (or has ended).
     */
    public Thread blockStderrWriter() {
        return ApplicationThreads.systemErrWrite(process.kernel, "an application thread blocked writing System.err");
    }

    /**
     * Windows: a native thread (HotSpot's own output, a JNI library's {@code fprintf}) writes descriptor
     * {@code fd} through the C runtime's {@code _write} until it blocks on a pipe nobody reads,
     * holding the C runtime's lock of {@code fd} and the pipe's file-object lock from then on;
     * returns once it is blocked (or has ended).
     */
    public Thread blockNativeWriter(int fd) {
        return ApplicationThreads.nativeWrite(process.kernel, fd, "a native thread blocked in _write(" + fd + ")");
    }

    /**
     * Windows: a native thread (a JNI library's {@code fgets(stdin)}) reads descriptor {@code fd}
     * through the C runtime's {@code _read}; on a pipe with nothing in it, it blocks, holding the C
     * runtime's lock of {@code fd} and the pipe's file-object lock until the client sends something,
     * which it takes ({@link #takenFromStdinWire()}), or until {@code CancelIoEx} ends its read.
     * Returns once it is blocked (or has ended: the pipe had data, or fd names a file that answers at once).
     */
    public Thread blockNativeReader(int fd) {
        return ApplicationThreads.nativeRead(process.kernel, fd, "a native thread blocked in _read(" + fd + ")");
    }

    /** Windows: what native reads ({@link #blockNativeReader}) took from the stdin wire. */
    public String takenFromStdinWire() {
        return process.kernel.locked(() -> process.kernel.threads.takenFromStdinWire.toString(StandardCharsets.UTF_8));
    }

    /**
     * Windows: waits until every application thread that blocks in I/O ({@link #blockStderrWriter},
     * {@link #blockNativeWriter}, {@link #blockNativeReader}) has ended or is blocked, for example
     * after the client sent what a blocked reader takes.
     */
    public void awaitApplicationThreads() {
        locked(() -> process.kernel.threads.awaitApplicationThreads());
    }

    /** What closing one of the JVM's standard streams did. */
    public enum StreamClose {
        /** The value was protected from close: still open, the field is -1 all the same. */
        REFUSED,
        /** The value was closed, and it was no descriptor's handle. */
        CLOSED,
        /** The value was descriptor {@code fd}'s own handle, which is closed now, as it would be without a claim. */
        CLOSED_THE_DESCRIPTORS_OWN
    }

    /**
     * Windows: application code closes the JVM's stream {@code fd} ({@code FileDescriptor.out}, or
     * a stream over it captured before the claim), as the JDK's {@code fileDescriptorClose} does:
     * {@code CloseHandle} on its start-up value, then the field is -1 whatever that did.
     */
    public StreamClose closeStandardStream(int fd) {
        return process.kernel.locked(() -> {
            FakeCrt crt = process.kernel.crt();
            long value = crt.jvmHandle(fd);
            boolean own = crt.osHandle(fd) == value;
            boolean closed = crt.handles.close(value);
            crt.forgetJvmHandle(fd);
            process.kernel.changed.signalAll();
            return !closed ? StreamClose.REFUSED : own ? StreamClose.CLOSED_THE_DESCRIPTORS_OWN : StreamClose.CLOSED;
        });
    }

    /**
     * Windows: from now on the calling thread (the one that claims and releases) never waits for
     * a lock another thread holds: each such wait is recorded as a hang in
     * {@link FakeProcess#wireViolations()}, naming the lock and its holder, and the call goes on.
     */
    public void watchForHangs() {
        locked(() -> process.kernel.threads.watch(Thread.currentThread()));
    }

    /** Windows: right after the {@code call}-th logged call, another thread of this JVM does {@code what}. */
    public void interfereAfter(int call, Interference what) {
        locked(() -> process.kernel.threads.schedule(call, what));
    }

    /** The children {@link Interference#START_CHILD} started, each as it stood when it got the child-start monitor. */
    public List<FakeChild> racingChildren() {
        return process.kernel.locked(() -> List.copyOf(process.kernel.racingChildren));
    }

    /**
     * Windows: the first {@code OpenThread} of each thread whose name starts with {@code prefix}
     * waits for the first logged call of {@code until}, and is made right after it while that
     * call's thread waits (for such a thread to come first, if none has yet); or, should the watched thread ({@link #watchForHangs()}) wait for
     * something outside the model first (for these threads, say), at once. So a thread's first
     * handle lands at a chosen moment.
     */
    public void holdThreadHandles(String prefix, Op until) {
        locked(() -> process.kernel.threads.holdThreadHandles(prefix, until));
    }

    /**
     * Windows: another instance of the provider over this process's table, as an explicit
     * {@code platform(...)} or a second binding (FFM after JNA) makes one.
     */
    public io.mcpwire.platform.PlatformDescriptors anotherWindowsProvider() {
        return new FakeWindowsDescriptors(process.kernel, process.win32());
    }

    private void locked(Runnable r) {
        process.kernel.locked(() -> {
            r.run();
            return null;
        });
    }

    /** {@code new ProcessBuilder(...).inheritIO()}: all three streams inherited. */
    public FakeChild startInheritIoChild() {
        return startChild(new ProcessBuilder("child").inheritIO());
    }

    /**
     * Ends the fake process: flushes {@code System.out} and {@code System.err} into whatever fd 1
     * and fd 2 are now, puts the JVM's own streams back, and closes every descriptor, so the client
     * reads end of output. Idempotent.
     */
    public synchronized void exit() {
        if (exited) {
            return;
        }
        exited = true;
        out.flush();
        err.flush();
        if (System.in != savedIn) {
            System.setIn(savedIn);
        }
        System.setOut(savedOut);
        System.setErr(savedErr);
        process.kernel.exitProcess();
    }

    private OutputStream output(int fd) {
        if (process.modelsWindows()) {
            return ByteStreams.output((b, off, len) -> JvmHandles.jvmWrite(process.kernel, fd, b, off, len), () -> { });
        }
        return ByteStreams.output(new FakeStream(process.kernel, fd)::write, () -> { });
    }

    private InputStream input() {
        if (process.modelsWindows()) {
            return ByteStreams.input((b, off, len) -> JvmHandles.jvmRead(process.kernel, b, off, len));
        }
        return ByteStreams.input(new FakeStream(process.kernel, 0)::read);
    }
}
