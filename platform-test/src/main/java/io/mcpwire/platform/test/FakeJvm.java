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
     * A logging handler created meanwhile keeps the stream it found, the fake's fd 2.
     */
    public static FakeJvm install(FakeProcess process) {
        FakeJvm jvm = new FakeJvm(process);
        System.setIn(new BufferedInputStream(jvm.input()));
        System.setOut(jvm.out);
        System.setErr(jvm.err);
        return jvm;
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
        return process.kernel.locked(() -> {
            if (process.kernel.model instanceof FakeCrt crt) {
                FakeCrt.ChildReach r = crt.javaChild(inherit, merged);
                return new FakeChild(process.kernel, r.stdio(), r.reach());
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
            return ByteStreams.output((b, off, len) -> process.kernel.jvmWrite(fd, b, off, len), () -> { });
        }
        return ByteStreams.output(new FakeStream(process.kernel, fd)::write, () -> { });
    }

    private InputStream input() {
        if (process.modelsWindows()) {
            return ByteStreams.input(process.kernel::jvmRead);
        }
        return ByteStreams.input(new FakeStream(process.kernel, 0)::read);
    }
}
