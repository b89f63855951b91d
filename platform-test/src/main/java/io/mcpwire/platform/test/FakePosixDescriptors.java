package io.mcpwire.platform.test;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.platform.StandardOrigin;
import java.io.ByteArrayOutputStream;
import java.util.Optional;

/**
 * The POSIX face of a fake process: the {@link PlatformDescriptors} calls as a POSIX kernel
 * answers them, each logged, open to a scripted failure and followed by the wire check. Descriptors
 * are allocated lowest-free-first, open files are shared, {@code dup2} is atomic.
 * {@link FakeProcess} is this face, so that a fake passes wherever a provider goes.
 */
public abstract sealed class FakePosixDescriptors implements PlatformDescriptors permits FakeProcess {
    final FakeKernel kernel;
    /** See {@link #standardHandleDuties()}: decided once, as the kernel's streams are. */
    private final Optional<StandardHandleDuties> duties;

    FakePosixDescriptors(FakeKernel kernel) {
        this.kernel = kernel;
        this.duties = kernel.followsDescriptors ? Optional.empty() : Optional.of(new StandardHandleDuties() {
            @Override
            public void rebindStandardHandle(int fd) throws DescriptorException {
                FakePosixDescriptors.this.rebindStandardHandle(fd);
            }

            @Override
            public void followStartupHandle(int fd) {
            }

            @Override
            public void cancelStrandedReads(int fd, int privateFd) {
            }
        });
    }

    @Override
    public String name() {
        return kernel.name;
    }

    @Override
    public int spiVersion() {
        return SPI_VERSION;
    }

    /** A fake runs anywhere. */
    @Override
    public Probe probe() {
        return Probe.available();
    }

    /** Negative: the fake is chosen only by name or explicitly, never automatically. */
    @Override
    public int priority() {
        return -100;
    }

    /**
     * None where the JVM's streams follow the descriptors; where they are
     * {@linkplain FakeProcess.Builder#detachedJvmStreams() detached}, the modelled slot's rebind
     * ({@link #rebindStandardHandle}) and nothing else: this face models no start-up handles and
     * no stranded reads (the Windows face does).
     */
    @Override
    public Optional<StandardHandleDuties> standardHandleDuties() {
        return duties;
    }

    /** The scripted wait where the fake was built with {@link FakeProcess.Builder#hostExits()}, else none. */
    @Override
    public Optional<ProcessExits> processExits() {
        return kernel.exits.map(ProcessExits.class::cast);
    }

    /** This fake's own table: claims on it never meet claims on the real process or other fakes. */
    @Override
    public DescriptorTable descriptorTable() {
        return kernel.descriptorTable;
    }

    @Override
    public int duplicateAboveStandard(int fd) throws DescriptorException {
        return kernel.call(Op.DUP_ABOVE_STANDARD, fd, -1, null, c -> allocate(kernel.open(c, fd), 3, c));
    }

    @Override
    public int duplicate(int fd) throws DescriptorException {
        return kernel.call(Op.DUP, fd, -1, null, c -> allocate(kernel.open(c, fd), 0, c));
    }

    @Override
    public void duplicateOnto(int source, int target) throws DescriptorException {
        kernel.call(Op.DUP2, target, source, null, c -> {
            FakeFile file = kernel.open(c, source);
            checkRange(c, target);
            if (source != target) {
                kernel.posix().close(target);
                kernel.posix().install(target, file, false); // dup2 clears close-on-exec on the target
            }
            return target;
        });
    }

    @Override
    public int openNullDevice(Access access) throws DescriptorException {
        return kernel.call(Op.OPEN_NULL, -1, -1, access, c -> allocate(
                FakeFile.nullDevice(kernel.nextId(), "null device (" + access.name().toLowerCase() + ")"), 0, c));
    }

    @Override
    public int openAppend(String path) throws DescriptorException {
        return kernel.call(Op.OPEN_APPEND, -1, -1, null, c -> {
            ByteArrayOutputStream sink = kernel.files.computeIfAbsent(path, k -> new ByteArrayOutputStream());
            return allocate(FakeFile.sink(kernel.nextId(), kernel.nextId(), "file " + path, FileIdentity.Kind.FILE, sink), 0, c);
        });
    }

    /**
     * Two new descriptors from 3 up, close-on-exec, on a pipe of 64 KiB, in a fake built with
     * {@code makesPipes()}; without it, the refusal of a provider that cannot make pipes, and no call.
     */
    @Override
    public PipeEnds pipe() throws DescriptorException {
        if (!kernel.makesPipes) {
            return FakeWindowsDescriptors.cannotMakePipes(this);
        }
        return kernel.call(Op.PIPE, -1, -1, null, c -> {
            int[] ends = kernel.newPipe();
            if (ends[1] < 0) {
                throw FakeKernel.error(c, FakeErrors.EMFILE, "EMFILE (Too many open files)");
            }
            return new PipeEnds(ends[0], ends[1]);
        });
    }

    /**
     * A descriptor the parent left closed and the JVM filled with its own file is
     * {@link StandardOrigin#PROCESS_OWN} while that file is there; a closed one is
     * {@link StandardOrigin#CLOSED}; any other is inherited.
     */
    @Override
    public StandardOrigin standardOrigin(int fd) throws DescriptorException {
        return kernel.call(Op.ORIGIN, fd, -1, null, c -> {
            checkRange(c, fd);
            return kernel.posix().origin(fd);
        });
    }

    @Override
    public void close(int fd) throws DescriptorException {
        kernel.call(Op.CLOSE, fd, -1, null, c -> {
            kernel.open(c, fd);
            kernel.posix().close(fd);
            return 0;
        });
    }

    /**
     * Points the modelled OS slot for {@code fd} (0, 1 or 2) at fd's file: the duty this face
     * offers when its JVM streams are detached.
     *
     * @throws DescriptorException as a provider's rebind would: fd not standard, or closed
     */
    public void rebindStandardHandle(int fd) throws DescriptorException {
        kernel.call(Op.REBIND, fd, -1, null, c -> {
            if (fd < 0 || fd > 2) {
                throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (not a standard descriptor)");
            }
            kernel.open(c, fd);
            kernel.posix().rebind(fd);
            return 0;
        });
    }

    @Override
    public FileIdentity identity(int fd) throws DescriptorException {
        return kernel.call(Op.IDENTITY, fd, -1, null, c -> kernel.open(c, fd).identity());
    }

    @Override
    public DescriptorStream open(int fd) throws DescriptorException {
        kernel.call(Op.OPEN_STREAM, fd, -1, null, c -> 0);
        return new FakeStream(kernel, fd);
    }

    private static void checkRange(Call c, int fd) throws DescriptorException {
        if (!FakeTable.inRange(fd)) {
            throw FakeKernel.error(c, FakeErrors.EBADF, "EBADF (Bad file descriptor)");
        }
    }

    private int allocate(FakeFile file, int floor, Call c) throws DescriptorException {
        int fd = kernel.posix().allocate(file, floor);
        if (fd < 0) {
            throw FakeKernel.error(c, FakeErrors.EMFILE, "EMFILE (Too many open files)");
        }
        return fd;
    }
}
