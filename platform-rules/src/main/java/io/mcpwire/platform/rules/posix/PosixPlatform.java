package io.mcpwire.platform.rules.posix;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.rules.BoundPlatform;
import io.mcpwire.platform.rules.NativeBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;

/**
 * What a POSIX provider does, whatever binds it to the C library (JNA, the JDK's foreign function
 * API): one place for the rules, so that every binding behaves alike. A subclass names itself,
 * gives its priority and how its binding loads.
 *
 * <p>Constructing it costs nothing; the binding loads on the first call that needs it
 * ({@link #probe()} or an operation). The private duplicate is
 * {@code fcntl(fd, F_DUPFD_CLOEXEC, 3)}, the diversion {@code open("/dev/null", O_CLOEXEC)}, a
 * descriptor's identity the device and inode that the JDK's own {@code stat} of
 * {@code /dev/fd/N} reports (no {@code struct stat} layout in this code), and the streams poll a
 * self-pipe so that a read blocked on an idle wire can be woken.
 */
public abstract class PosixPlatform extends BoundPlatform<PosixLib> {
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFSOCK = 0140000;
    /** {@code /dev/null}'s device and inode, once known: the same for the life of the process. */
    private static volatile long[] nullDevice;


    /** A provider over {@code binding}, which loads on first use. */
    protected PosixPlatform(NativeBinding<PosixLib> binding) {
        super(binding);
    }

    @Override
    public int duplicateAboveStandard(int fd) throws DescriptorException {
        PosixLib p = bound();
        return p.check(p.libc().fcntl(fd, p.constants().fDupfdCloexec(), 3), "fcntl(" + fd + ", F_DUPFD_CLOEXEC, 3)", fd);
    }

    @Override
    public int duplicate(int fd) throws DescriptorException {
        PosixLib p = bound();
        return p.check(p.libc().fcntl(fd, p.constants().fDupfdCloexec(), 0), "fcntl(" + fd + ", F_DUPFD_CLOEXEC, 0)", fd);
    }

    @Override
    public void duplicateOnto(int source, int target) throws DescriptorException {
        PosixLib p = bound();
        while (true) {
            if (p.libc().dup2(source, target) >= 0) {
                return;
            }
            int errno = p.libc().errno();
            if (errno != PosixConstants.EINTR) { // dup2 is atomic: retrying after EINTR is safe
                throw p.error("dup2(" + source + ", " + target + ")", target, errno);
            }
        }
    }

    @Override
    public int openNullDevice(Access access) throws DescriptorException {
        PosixLib p = bound();
        int flags = (access == Access.READ ? PosixConstants.O_RDONLY : PosixConstants.O_WRONLY) | p.constants().oCloexec();
        return openRetrying(p, "/dev/null", flags, "open(\"/dev/null\", " + access + ")");
    }

    @Override
    public int openAppend(String path) throws DescriptorException {
        PosixLib p = bound();
        int flags = PosixConstants.O_WRONLY | p.constants().oAppend() | p.constants().oCreat() | p.constants().oCloexec();
        return openRetrying(p, path, flags, "open(\"" + path + "\", O_WRONLY|O_APPEND|O_CREAT)");
    }

    /** {@code open}, with mode 0644 where it creates, retried after {@code EINTR}. */
    private static int openRetrying(PosixLib p, String path, int flags, String operation) throws DescriptorException {
        while (true) {
            int fd = (flags & p.constants().oCreat()) != 0 ? p.libc().open(path, flags, 0644) : p.libc().open(path, flags);
            if (fd >= 0) {
                return fd;
            }
            int errno = p.libc().errno();
            if (errno != PosixConstants.EINTR) {
                throw p.error(operation, -1, errno);
            }
        }
    }

    /**
     * On Linux, a wait on {@code pidfd_open} descriptors ({@link PidfdExits}); on macOS, a wait on a
     * {@code kqueue} ({@link KqueueExits}); each binds the C library when a wait opens. Elsewhere
     * (FreeBSD, whose {@code struct kevent} is laid out otherwise) none.
     */
    @Override
    public Optional<ProcessExits> processExits() {
        PosixConstants here = PosixConstants.forOs(System.getProperty("os.name", ""));
        if (here == PosixConstants.LINUX) {
            return Optional.of(exitsOverBinding("pidfd_open", Waits.PIDFD));
        }
        if (here == PosixConstants.MACOS) {
            return Optional.of(exitsOverBinding("kqueue", Waits.KQUEUE));
        }
        return Optional.empty();
    }

    /** The system's wait over the bound library: constants, not lambdas, since every transport asks for one as it is built. */
    private enum Waits implements ExitsOver<PosixLib> {
        PIDFD, KQUEUE;

        @Override
        public ProcessExits.Wait watch(PosixLib posix, long... pids) throws DescriptorException {
            return this == PIDFD ? new PidfdExits(posix).watch(pids) : new KqueueExits(posix).watch(pids);
        }
    }

    /** {@code pipe}, both ends then moved to 3 or above, close-on-exec. */
    @Override
    public PipeEnds pipe() throws DescriptorException {
        int[] ends = bound().pipeAboveStandard("pipe()", -1);
        return new PipeEnds(ends[0], ends[1]);
    }

    /**
     * Closed when {@code fcntl(F_GETFD)} fails with EBADF. The process's own when it is
     * close-on-exec (no descriptor a parent passed through {@code exec} can be) or when it names
     * one of the JVM's own files ({@code lib/modules} under {@code java.home}, a class-path or
     * module-path jar), found through {@code /proc/self/fd} on Linux and {@code F_GETPATH} on
     * macOS. Inherited otherwise.
     */
    @Override
    public StandardOrigin standardOrigin(int fd) throws DescriptorException {
        PosixLib p = bound();
        int flags = p.libc().fcntl(fd, PosixConstants.F_GETFD);
        if (flags < 0) {
            int errno = p.libc().errno();
            if (errno == PosixConstants.EBADF) {
                return StandardOrigin.CLOSED;
            }
            throw p.error("fcntl(" + fd + ", F_GETFD)", fd, errno);
        }
        if ((flags & PosixConstants.FD_CLOEXEC) != 0) {
            return StandardOrigin.PROCESS_OWN;
        }
        Path path = path(p, fd);
        // Only a regular file can be one of the JVM's; a pipe or socket never builds the set of them.
        return path != null && Files.isRegularFile(path) && JvmFilesHolder.FILES.contains(path)
                ? StandardOrigin.PROCESS_OWN : StandardOrigin.INHERITED;
    }

    /**
     * The absolute path {@code fd} was opened with, or null where there is none (a pipe or socket,
     * whose {@code /proc} link reads {@code pipe:[N]}) or none can be had (FreeBSD).
     */
    private static Path path(PosixLib p, int fd) {
        try {
            if (p.constants().fGetpath() >= 0) {
                String path = p.libc().fcntlPath(fd, p.constants().fGetpath());
                return path == null ? null : Path.of(path);
            }
            if (!ProcFdHolder.PRESENT) {
                return null;
            }
            String target = p.libc().readlink("/proc/self/fd/" + fd);
            return target != null && target.startsWith("/") ? Path.of(target) : null;
        } catch (RuntimeException e) {
            return null; // no path: not a file the JVM could have opened for itself
        }
    }

    /** {@code F_GETPATH} on macOS, the {@code /proc/self/fd} link on Linux. */
    @Override
    public String describe(int fd) {
        try {
            PosixLib p = bound();
            if (p.constants().fGetpath() >= 0) {
                String path = p.libc().fcntlPath(fd, p.constants().fGetpath());
                return path != null ? "F_GETPATH " + path : "F_GETPATH failed: " + p.error("fcntl(F_GETPATH)", fd, p.libc().errno()).errorText();
            }
            if (ProcFdHolder.PRESENT) {
                String target = p.libc().readlink("/proc/self/fd/" + fd);
                return target != null ? "/proc/self/fd/" + fd + " -> " + target : "no /proc/self/fd/" + fd + " (closed)";
            }
            return "(no F_GETPATH or /proc/self/fd on this system)";
        } catch (DescriptorException | RuntimeException e) {
            return "(cannot tell: " + e.getMessage() + ")";
        }
    }

    /** Whether this system has {@code /proc/self/fd}, looked up once. */
    private static final class ProcFdHolder {
        static final boolean PRESENT = Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** Computed on first use, so that constructing the provider stays cheap. */
    private static final class JvmFilesHolder {
        static final JvmOwnFiles FILES = JvmOwnFiles.ofThisJvm();
    }

    @Override
    public void close(int fd) throws DescriptorException {
        PosixLib p = bound();
        // Never retried: on Linux an interrupted close has still freed the descriptor.
        p.check(p.libc().close(fd), "close(" + fd + ")", fd);
    }

    @Override
    public FileIdentity identity(int fd) throws DescriptorException {
        PosixLib p = bound();
        int flags = p.check(p.libc().fcntl(fd, PosixConstants.F_GETFL), "fcntl(" + fd + ", F_GETFL)", fd);
        boolean writable = (flags & PosixConstants.O_ACCMODE) != PosixConstants.O_RDONLY;
        Map<String, Object> a = stat(Path.of("/dev/fd/" + fd), fd, p);
        long dev = ((Number) a.get("dev")).longValue();
        long ino = ((Number) a.get("ino")).longValue();
        int type = ((Number) a.get("mode")).intValue() & S_IFMT;
        FileIdentity.Kind kind;
        if (type == S_IFIFO) {
            kind = FileIdentity.Kind.PIPE;
        } else if (type == S_IFSOCK) {
            kind = FileIdentity.Kind.SOCKET;
        } else if (type == S_IFREG) {
            kind = FileIdentity.Kind.FILE;
        } else if (type == S_IFCHR) {
            kind = p.libc().isatty(fd) == 1 ? FileIdentity.Kind.TERMINAL
                    : isNullDevice(dev, ino, p) ? FileIdentity.Kind.NULL_DEVICE : FileIdentity.Kind.OTHER;
        } else {
            kind = FileIdentity.Kind.OTHER;
        }
        return new FileIdentity(dev, ino, kind, writable);
    }

    /** Device and inode alone, as the JDK's {@code stat} gives them: no access mode, no kind. */
    @Override
    public boolean sameFile(int a, int b) throws DescriptorException {
        PosixLib p = bound();
        return fileKey(a, p).equals(fileKey(b, p));
    }

    private static Object fileKey(int fd, PosixLib p) throws DescriptorException {
        Path path = Path.of("/dev/fd/" + fd);
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            throw p.error("stat(" + path + ")", fd, PosixConstants.EBADF);
        } catch (IOException e) {
            throw new DescriptorException("stat(" + path + ")", fd, 0, e.toString());
        }
    }

    private static boolean isNullDevice(long dev, long ino, PosixLib p) throws DescriptorException {
        long[] devIno = nullDevice;
        if (devIno == null) {
            Map<String, Object> a = stat(Path.of("/dev/null"), -1, p);
            devIno = new long[] {((Number) a.get("dev")).longValue(), ((Number) a.get("ino")).longValue()};
            nullDevice = devIno;
        }
        return dev == devIno[0] && ino == devIno[1];
    }

    /** The JDK's own stat, which knows each system's struct layout. */
    private static Map<String, Object> stat(Path path, int fd, PosixLib p) throws DescriptorException {
        try {
            return Files.readAttributes(path, "unix:dev,ino,mode");
        } catch (NoSuchFileException e) {
            throw p.error("stat(" + path + ")", fd, PosixConstants.EBADF);
        } catch (IOException | UnsupportedOperationException e) {
            throw new DescriptorException("stat(" + path + ")", fd, 0, e.toString());
        }
    }

    @Override
    public DescriptorStream open(int fd) throws DescriptorException {
        return PollingStream.open(bound(), fd);
    }
}
