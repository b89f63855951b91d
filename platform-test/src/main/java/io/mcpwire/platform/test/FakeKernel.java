package io.mcpwire.platform.test;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The one kernel under a {@link FakeProcess}'s faces: its descriptor model (a POSIX table, or a
 * Windows C runtime over handles), the wire's pipes and the other open files, the call log with
 * its scripted faults, and the check after every call that the wire is still reachable.
 *
 * <p>Threads: every field is guarded by {@link #lock}. A read or write that must wait for data or
 * room waits on {@link #changed}, which every platform call and every client action signals.
 */
final class FakeKernel {
    /** What the JVM's own file on a descriptor closed at start holds: not JSON-RPC. */
    private static final byte[] MODULE_IMAGE = "JIMAGE\u0000\u0001 the JVM's module image\n".getBytes(StandardCharsets.UTF_8);

    /** What a pipe holds before a writer waits: Linux's default. */
    static final int PIPE_CAPACITY = 64 * 1024;

    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();
    final String name;
    /** Whether the JVM's System.in and System.out follow descriptors 0 and 1 (POSIX). */
    final boolean followsDescriptors;
    /** The wait for exits this process's providers offer, where the builder asked for one. */
    final Optional<ScriptedExits> exits;
    /** Whether its providers answer {@code pipe()}: only when the fake is built so. */
    final boolean makesPipes;
    final DescriptorTable descriptorTable;
    final Faults faults = new Faults(lock);
    final DescriptorModel model;
    final Map<String, ByteArrayOutputStream> files = new HashMap<>();
    final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    /** fd 2's pipe with {@link StderrMode#UNREAD_PIPE}; null otherwise. */
    Pipe stderrPipe;
    final FakeFile wireIn;
    final FakeFile wireOut;
    final FakeClient client;
    /** The other threads of a Windows process: locks, processors, interference. */
    final KernelThreads threads = new KernelThreads(this);
    /** Children started by {@link Interference#START_CHILD}, once each has looked. */
    final List<FakeChild> racingChildren = new ArrayList<>();
    private final List<Call> calls = new ArrayList<>();
    /** Whether the calling thread's last logged call failed by a scripted fault rather than by its own rules. */
    private final ThreadLocal<Boolean> lastCallFaulted = ThreadLocal.withInitial(() -> false);
    private final List<String> violations = new ArrayList<>();
    private final boolean[] givenAtStart = {true, true};
    private long nextId = 10;
    private boolean wireLost;

    FakeKernel(FakeProcess.Builder b) {
        name = b.name;
        followsDescriptors = !b.detachedJvmStreams && !b.windows;
        makesPipes = b.makesPipes;
        exits = b.scriptedExits ? Optional.of(new ScriptedExits()) : Optional.empty();
        descriptorTable = DescriptorTable.create("the descriptor table of fake " + b.name);
        FileIdentity.Kind wireKind = b.sockets ? FileIdentity.Kind.SOCKET : FileIdentity.Kind.PIPE;
        String wireName = b.sockets ? "socket" : "pipe";
        Pipe toServer = new Pipe("client->server " + wireName, nextId(), Long.MAX_VALUE);
        Pipe toClient = new Pipe("server->client " + wireName, nextId(), b.pipeCapacity);
        toServer.writers = 1; // the client's end
        toClient.readers = 1;
        wireIn = b.stdinContent != null
                ? FakeFile.file(nextId(), "stdin file", b.stdinContent)
                : FakeFile.pipeEnd(nextId(), toServer, true, wireKind);
        wireOut = b.stderr == StderrMode.TERMINAL_WITH_STDOUT
                ? FakeFile.sink(nextId(), nextId(), "terminal", FileIdentity.Kind.TERMINAL, terminal)
                : FakeFile.pipeEnd(nextId(), toClient, false, wireKind);
        FakeFile[] std = new FakeFile[3];
        for (int fd = 0; fd < 2; fd++) {
            givenAtStart[fd] = !b.closedAtStart[fd];
            std[fd] = fd == 0 ? wireIn : wireOut;
        }
        std[2] = switch (b.stderr) {
            case SINK -> FakeFile.sink(nextId(), nextId(), "stderr", FileIdentity.Kind.PIPE, stderr);
            case UNREAD_PIPE -> {
                stderrPipe = new Pipe("stderr pipe", nextId(), PIPE_CAPACITY);
                stderrPipe.readers = 1; // the host's end, never read
                yield FakeFile.pipeEnd(nextId(), stderrPipe, false, FileIdentity.Kind.PIPE);
            }
            case SAME_AS_STDOUT -> wireOut;
            case READ_ONLY_FILE -> FakeFile.file(nextId(), "lib/modules", MODULE_IMAGE);
            // A second open of the same terminal: another open file, the same device and inode.
            case TERMINAL_WITH_STDOUT -> FakeFile.sink(nextId(), wireOut.inode, "terminal", FileIdentity.Kind.TERMINAL, terminal);
            case CLOSED -> null;
        };
        model = b.windows ? windowsModel(b, std) : posixModel(b, std);
        client = new FakeClient(this, toServer, toClient);
    }

    /** POSIX: a standard descriptor the parent left closed holds the JVM's module image. */
    private FakeTable posixModel(FakeProcess.Builder b, FakeFile[] std) {
        FakeTable table = new FakeTable(!b.detachedJvmStreams);
        for (int fd = 0; fd < 3; fd++) {
            if (fd < 2 && b.closedAtStart[fd]) {
                table.installOwn(fd, FakeFile.file(nextId(), "lib/modules (the JVM's own)", MODULE_IMAGE));
            } else if (fd == 2 && b.stderr == StderrMode.READ_ONLY_FILE) {
                table.installOwn(fd, std[fd]);
            } else if (std[fd] != null) {
                table.install(fd, std[fd], false);
            }
            table.rebind(fd);
        }
        return table;
    }

    /** Windows: a stream the parent did not give is a descriptor open with no handle, and an empty slot. */
    private FakeCrt windowsModel(FakeProcess.Builder b, FakeFile[] std) {
        FakeCrt crt = new FakeCrt(b.windowsVariant, () -> threads.cpuOf(Thread.currentThread()));
        for (int fd = 0; fd < 3; fd++) {
            crt.installStandard(fd, fd < 2 && b.closedAtStart[fd] ? null : std[fd]);
        }
        return crt;
    }

    /**
     * A pipe of 64 KiB inside the table, as {@code pipe(2)} or {@code _pipe} makes one; under the
     * lock. The ends are {-1, -1} when the table is full.
     */
    int[] newPipe() {
        long id = nextId();
        Pipe p = new Pipe("pipe " + id, id, PIPE_CAPACITY);
        FakeFile read = FakeFile.pipeEnd(nextId(), p, true, FileIdentity.Kind.PIPE);
        FakeFile write = FakeFile.pipeEnd(nextId(), p, false, FileIdentity.Kind.PIPE);
        return model instanceof FakeCrt crt ? crt.pipe(read, write) : posix().pipe(read, write);
    }

    /** The host starts reading fd 2's {@link StderrMode#UNREAD_PIPE} into the stderr sink; under the lock. */
    Void hostReadsStderr() {
        if (stderrPipe == null) {
            throw new IllegalStateException("fd 2 is not a pipe the host leaves unread (StderrMode.UNREAD_PIPE)");
        }
        stderrPipe.readContinuouslyInto(stderr);
        changed.signalAll();
        return null;
    }

    long nextId() {
        return nextId++;
    }

    /** The POSIX table; this process must model POSIX. */
    FakeTable posix() {
        if (model instanceof FakeTable t) {
            return t;
        }
        throw new IllegalStateException("fake " + name + " models Windows: claim through its windows() provider");
    }

    /** The C runtime over handles; this process must model Windows. */
    FakeCrt crt() {
        if (model instanceof FakeCrt c) {
            return c;
        }
        throw new IllegalStateException("fake " + name + " models POSIX descriptors: build it with windows()");
    }

    /** Whether the parent gave standard descriptor {@code fd} (0 or 1) a wire at start. */
    boolean givenAtStart(int fd) {
        return givenAtStart[fd];
    }

    <T> T locked(Supplier<T> query) {
        lock.lock();
        try {
            return query.get();
        } finally {
            lock.unlock();
        }
    }

    List<Call> calls() {
        return locked(() -> List.copyOf(calls));
    }

    int callCount() {
        return locked(calls::size);
    }

    /** The number of calls so far; under the lock. */
    int callCountLocked() {
        return calls.size();
    }

    List<String> violations() {
        return locked(() -> List.copyOf(violations));
    }

    /** Records a broken rule of the modelled OS that the wire check cannot see. */
    void violation(String what) {
        violations.add(what);
    }

    /** What a call does once logged and past the scripted faults; it runs under the lock. */
    @FunctionalInterface
    interface Action<T> {
        T run(Call call) throws IOException;
    }

    /** Logs the call, applies a scripted failure if one fires, runs it, then checks the wire. */
    <T> T call(Op op, int fd, int source, Access access, Action<T> action) throws DescriptorException {
        try {
            return callIo(op, fd, source, access, action);
        } catch (DescriptorException e) {
            throw e;
        } catch (IOException e) {
            throw new DescriptorException(op.name(), fd, 0, e.toString());
        }
    }

    <T> T callIo(Op op, int fd, int source, Access access, Action<T> action) throws IOException {
        lock.lock();
        try {
            Call c = new Call(calls.size() + 1, op, fd, source, access);
            calls.add(c);
            try {
                FaultRule fault = faults.match(c);
                lastCallFaulted.set(fault != null);
                if (fault != null) {
                    if ((op == Op.DUP2 && fault.destroysTarget() && dup2CanDestroy()) || op == Op.CLOSE) {
                        // A failing close still frees the descriptor, as on Linux and in the C runtime.
                        model.close(fd);
                    }
                    throw error(c, fault.errnoCode(), fault.errorText());
                }
                return action.run(c);
            } finally {
                checkWire(c);
                changed.signalAll();
                threads.afterCall(c);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether the calling thread's last logged call was failed by a scripted fault. */
    boolean lastCallFaulted() {
        return lastCallFaulted.get();
    }

    /** A {@code _dup2} that duplicates before it closes cannot have closed its target when it fails. */
    private boolean dup2CanDestroy() {
        return !(model instanceof FakeCrt crt) || crt.variant().dup2Order() == WindowsVariant.Dup2Order.CLOSE_FIRST;
    }

    private void checkWire(Call c) {
        // A wire the parent never gave (closed at start) cannot be lost.
        boolean inLost = givenAtStart[0] && wireIn.refs == 0;
        boolean lost = inLost || (givenAtStart[1] && wireOut.refs == 0);
        if (lost && !wireLost) {
            String which = inLost ? "stdin wire (" + wireIn.label + ")" : "stdout wire (" + wireOut.label + ")";
            violations.add("after call " + c + ": the " + which + " is referred to by no descriptor");
        }
        wireLost = lost;
    }

    static DescriptorException error(Call c, int errno, String text) {
        return new DescriptorException(c.describe(), c.fd(), errno, text);
    }

    /** The open file of {@code fd}, or {@code EBADF}. */
    FakeFile open(Call c, int fd) throws DescriptorException {
        FakeFile f = model.file(fd);
        if (f == null) {
            throw error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
        }
        return f;
    }

    /**
     * Ends the process as the OS does: every descriptor and handle closes, so the client reads end
     * of output once it has read what was written. Not a platform call: nothing is logged.
     */
    void exitProcess() {
        locked(() -> {
            model.closeAll();
            threads.processEnded = true; // every thread blocked in a call returns, as the process's threads end
            changed.signalAll();
            return null;
        });
    }

    /** One blocking step of a synchronous I/O call. */
    @FunctionalInterface
    interface IoStep {
        int run() throws java.nio.channels.AsynchronousCloseException;
    }

    /**
     * A synchronous {@code ReadFile} or {@code WriteFile} on {@code f}: it waits for the file
     * object's lock, then holds it for as long as the step blocks (NT's {@code IopSynchronousServiceTail}).
     */
    int synchronousIo(FakeFile f, String call, IoStep step) throws java.nio.channels.AsynchronousCloseException {
        if (f.pipe == null) {
            return step.run(); // a sink, file or device answers at once: no wait is ever seen on it
        }
        Thread me = Thread.currentThread();
        threads.awaitLock(call + " on " + f.label + " (its file object's lock)", () -> f.ioOwner);
        boolean owner = f.ioOwner == null;
        if (owner) {
            f.ioOwner = me;
        }
        threads.enterIo(me, f);
        try {
            return step.run();
        } finally {
            threads.leaveIo(me);
            if (owner) {
                f.ioOwner = null;
                changed.signalAll();
            }
        }
    }

    /** A wait that nothing cancels: until the kernel changes, or the process ends. */
    FakeFile.Wait uncancelled() {
        return new FakeFile.Wait() {
            @Override
            public boolean woken() {
                return threads.processEnded;
            }

            @Override
            public void await() {
                changed.awaitUninterruptibly();
            }
        };
    }

    /** Which wires (0: stdin, 1: stdout) are among {@code files}. */
    java.util.Set<Integer> wiresAmong(java.util.Collection<FakeFile> files) {
        java.util.Set<Integer> out = new java.util.TreeSet<>();
        if (files.contains(wireIn)) {
            out.add(0);
        }
        if (files.contains(wireOut)) {
            out.add(1);
        }
        return out;
    }

    /** Marks {@code s} woken and wakes every wait of the table. */
    void wake(FakeStream s) {
        locked(() -> {
            s.woken = true;
            changed.signalAll();
            return null;
        });
    }
}
