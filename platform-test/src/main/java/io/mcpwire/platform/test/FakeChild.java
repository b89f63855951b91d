package io.mcpwire.platform.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A child process that a {@link FakeJvm} started ({@link FakeJvm#startChild}), as it stands at its
 * start: what its standard streams are and every file it could reach through them or through the
 * handles it inherited. It can write to its stdout, to see where the bytes land.
 */
public final class FakeChild {
    private final FakeKernel kernel;
    private final List<FakeFile> stdio;
    private final Set<FakeFile> reach;
    private final Set<FakeFile> hidden;

    FakeChild(FakeKernel kernel, List<FakeFile> stdio, Set<FakeFile> reach) {
        this(kernel, stdio, reach, Set.of());
    }

    FakeChild(FakeKernel kernel, List<FakeFile> stdio, Set<FakeFile> reach, Set<FakeFile> hidden) {
        this.kernel = kernel;
        this.stdio = stdio;
        this.reach = reach;
        this.hidden = hidden;
    }

    /**
     * Which wires the child reaches through a handle that is neither one of its standard streams
     * nor a standard descriptor's or slot's: a private duplicate that was inheritable when it started.
     */
    public Set<Integer> wiresReachedThroughOtherHandles() {
        return kernel.locked(() -> kernel.wiresAmong(hidden));
    }

    /** Which wires (0: stdin, 1: stdout) the child can reach, through its streams or any inherited handle. */
    public Set<Integer> wiresReached() {
        return kernel.locked(() -> kernel.wiresAmong(reach));
    }

    /**
     * Whether stream {@code fd} of the child, inherited, names an object that no standard stream of
     * the process ever names: nothing (a value that was free when it started), or another thread's
     * object that took the value.
     */
    public boolean streamIsForeign(int fd) {
        FakeFile f = stdio.get(fd);
        return f == null || f.role == FakeFile.Role.THREAD || f.role == FakeFile.Role.EVENT || f.role == FakeFile.Role.JOB;
    }

    /** What the child's fd 0, 1 and 2 are: a file's label, or {@code "none"} (not inherited, or a value that names nothing). */
    public List<String> stdio() {
        List<String> out = new ArrayList<>();
        for (FakeFile f : stdio) {
            out.add(f == null ? "none" : f.label);
        }
        return List.copyOf(out);
    }

    /** Whether what the child writes to its stdout reaches the client, as it would without mcpwire. */
    public boolean stdoutReachesClient() {
        return stdio.get(1) != null && stdio.get(1) == kernel.wireOut;
    }

    /**
     * Writes {@code text} to the child's stdout, wherever that is.
     *
     * @throws IOException when its stdout names nothing or is not writable
     */
    public void printStdout(String text) throws IOException {
        FakeFile out = stdio.get(1);
        if (out == null || !out.canWrite()) {
            throw new IOException("the child's stdout is " + (out == null ? "no open file" : out.label + ", not writable"));
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        kernel.lock.lock();
        try {
            for (int done = 0; done < bytes.length; ) {
                int n = out.write(bytes, done, bytes.length - done, kernel.uncancelled());
                if (n < 0) {
                    throw new IOException("the child's write to " + out.label + " failed: its reader has gone");
                }
                done += n;
                kernel.changed.signalAll();
            }
        } finally {
            kernel.lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "FakeChild[stdio " + stdio() + ", wires " + wiresReached() + "]";
    }
}
