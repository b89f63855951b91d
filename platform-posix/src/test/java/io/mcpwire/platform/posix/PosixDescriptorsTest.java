package io.mcpwire.platform.posix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.posix.jna.LibC;
import io.mcpwire.platform.rules.posix.PosixConstants;
import io.mcpwire.platform.rules.posix.PosixLib;
import io.mcpwire.platform.test.harness.BlockedThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * What is POSIX about the JNA provider, on real descriptors in this JVM away from fd 0 and fd 1
 * (surefire talks over them): close-on-exec duplicates, the errno names, the self-pipe freed.
 * The SPI contract itself is {@link PosixProviderContractTest}.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC, OS.FREEBSD}, disabledReason = "the POSIX provider runs on POSIX systems only")
class PosixDescriptorsTest {
    private final PosixDescriptors posix = new PosixDescriptors();
    private int readEnd = -1;
    private int writeEnd = -1;

    @BeforeEach
    void pipe() throws DescriptorException {
        assertEquals(io.mcpwire.platform.Probe.available(), posix.probe());
        PosixLib p = PosixDescriptors.binding();
        int[] ends = new int[2];
        p.check(p.libc().pipe(ends), "pipe", -1);
        readEnd = ends[0];
        writeEnd = ends[1];
    }

    @AfterEach
    void closePipe() {
        for (int fd : new int[] {readEnd, writeEnd}) {
            try {
                if (fd >= 0) {
                    posix.close(fd);
                }
            } catch (DescriptorException ignored) {
                // already closed by the test
            }
        }
    }

    /** On Linux the wait for exits is offered, and a wait opens, or is refused only as an old kernel (ENOSYS) or a sandbox (EPERM) refuses it. */
    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "pidfd_open is Linux's")
    void onLinuxAWaitForExitsOpensOrIsRefusedOnlyByTheKernelOrASandbox() throws Exception {
        ProcessExits exits = posix.processExits().orElseThrow(() -> new AssertionError("offered on Linux"));
        try (ProcessExits.Wait wait = exits.watch(ProcessHandle.current().pid())) {
            wait.wake();
            assertEquals(OptionalLong.empty(), wait.await(), "a woken wait on a process that runs");
        } catch (DescriptorException refused) {
            assertTrue(refused.errorCode() == 38 || refused.errorCode() == 1, "ENOSYS or EPERM, not a call made wrong: " + refused.getMessage());
        }
    }

    /**
     * Linux's C library has no {@code kqueue}: the binding says so, on every call, as an
     * unsupported call (which the host watch takes as a refused wait), not as a linkage error.
     */
    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "kqueue is macOS's; only a Mac makes the call")
    void onLinuxKqueueIsAnUnsupportedCallNotALinkageError() throws Exception {
        JnaCLibrary c = JnaCLibrary.load();
        assertThrows(UnsupportedOperationException.class, c::kqueue);
        assertThrows(UnsupportedOperationException.class, c::kqueue, "again, once its lookup failed");
        assertThrows(UnsupportedOperationException.class, () -> c.kevent(3, null, 0, null, 0));
    }

    @Test
    void standardOriginTellsInheritedFromTheProcessOwnAndClosed() throws Exception {
        int own = posix.openNullDevice(Access.READ); // close-on-exec: no parent could have passed it
        int moved = 200;
        try {
            assertEquals(io.mcpwire.platform.StandardOrigin.PROCESS_OWN, posix.standardOrigin(own));
            posix.duplicateOnto(own, moved); // dup2 clears close-on-exec: as a parent's descriptor is
            assertEquals(io.mcpwire.platform.StandardOrigin.INHERITED, posix.standardOrigin(moved));
            posix.close(moved);
            assertEquals(io.mcpwire.platform.StandardOrigin.CLOSED, posix.standardOrigin(moved));
        } finally {
            posix.close(own);
        }
    }

    @Test
    void openAppendCreatesAppendsAndIsNotInherited(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("stray.log");
        Files.writeString(file, "before\n");
        int fd = posix.openAppend(file.toString());
        try (DescriptorStream s = posix.open(fd)) {
            assertTrue(isCloseOnExec(fd));
            byte[] b = "after\n".getBytes(StandardCharsets.UTF_8);
            s.write(b, 0, b.length);
        } finally {
            posix.close(fd);
        }
        assertEquals("before\nafter\n", Files.readString(file));
        DescriptorException e = assertThrows(DescriptorException.class, () -> posix.openAppend(dir.resolve("no/such/dir").toString()));
        assertTrue(e.getMessage().contains("ENOENT"), e.getMessage());
    }

    @Test
    void isTheSupportedPosixProviderWithTheRightConstants() {
        assertEquals("posix", posix.name());
        assertTrue(posix.priority() >= 0);
        assertTrue(posix.jvmStreamsFollowDescriptors());
        assertEquals(io.mcpwire.platform.Probe.available(), posix.probe());
        assertEquals(io.mcpwire.platform.PlatformDescriptors.SPI_VERSION, posix.spiVersion());
        assertEquals(1030, PosixConstants.forOs("Linux").fDupfdCloexec());
        assertEquals(67, PosixConstants.forOs("Mac OS X").fDupfdCloexec());
        assertEquals(17, PosixConstants.forOs("FreeBSD").fDupfdCloexec());
        assertEquals(null, PosixConstants.forOs("Windows 11"));
    }

    @Test
    void duplicatesLandAboveTheStandardRangeCloseOnExecAndNameTheSameFile() throws Exception {
        int dup = posix.duplicateAboveStandard(readEnd);
        try {
            assertTrue(dup > 2);
            assertTrue(posix.identity(dup).sameFileAs(posix.identity(readEnd)));
            assertTrue(isCloseOnExec(dup), "FD_CLOEXEC is set");
        } finally {
            posix.close(dup);
        }
    }

    private boolean isCloseOnExec(int fd) throws DescriptorException {
        PosixLib p = PosixDescriptors.binding();
        int fdFlags = p.check(p.libc().fcntl(fd, 1 /* F_GETFD */), "F_GETFD", fd);
        return (fdFlags & 1) != 0;
    }

    @Test
    void identityTellsPipesTheNullDeviceAndAccess() throws Exception {
        FileIdentity r = posix.identity(readEnd);
        FileIdentity w = posix.identity(writeEnd);
        assertEquals(FileIdentity.Kind.PIPE, r.kind());
        assertFalse(r.writable());
        assertTrue(w.writable());
        int nul = posix.openNullDevice(Access.WRITE);
        try {
            assertEquals(FileIdentity.Kind.NULL_DEVICE, posix.identity(nul).kind());
            assertTrue(isCloseOnExec(nul));
        } finally {
            posix.close(nul);
        }
    }

    @Test
    void dup2MovesAFileOntoATargetAndErrorsNameTheCallAndErrno() throws Exception {
        // A descriptor number far above what the JVM allocates, so that no other thread of this
        // JVM reuses it between the close and the calls that must find it closed.
        int target = 1000;
        posix.duplicateOnto(writeEnd, target);
        posix.duplicateOnto(readEnd, target);
        assertTrue(posix.identity(target).sameFileAs(posix.identity(readEnd)));
        posix.close(target);
        DescriptorException e = assertThrows(DescriptorException.class, () -> posix.close(target));
        assertEquals(PosixConstants.EBADF, e.errorCode());
        assertEquals(target, e.descriptor());
        assertTrue(e.getMessage().contains("close(" + target + ")") && e.getMessage().contains("EBADF"), e.getMessage());
        assertThrows(DescriptorException.class, () -> posix.identity(target));
        assertThrows(DescriptorException.class, () -> posix.duplicateOnto(target, 1001));
    }

    @Test
    void aReadBlockedOnAnIdlePipeIsWokenAndTheStreamFreesItsSelfPipe() throws Exception {
        long before = openPipeCount();
        DescriptorStream in = posix.open(readEnd);
        CompletableFuture<Throwable> reader = new CompletableFuture<>();
        Thread t = BlockedThreads.start(() -> in.read(new byte[16], 0, 16), reader);
        BlockedThreads.awaitInCall(t, LibC.class.getName(), "poll", Duration.ofSeconds(10));
        in.wakeUp();
        assertInstanceOf(AsynchronousCloseException.class, reader.get(10, TimeUnit.SECONDS));
        in.close();
        assertEquals(before, openPipeCount(), "the self-pipe is closed");
    }

    @Test
    void writingToAPipeWithoutReadersIsEpipeNotACrash() throws Exception {
        posix.close(readEnd);
        readEnd = -1;
        try (DescriptorStream out = posix.open(writeEnd)) {
            byte[] b = "x".getBytes(StandardCharsets.UTF_8);
            DescriptorException e = assertThrows(DescriptorException.class, () -> out.write(b, 0, 1));
            assertEquals(PosixConstants.EPIPE, e.errorCode());
        }
    }

    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "a pipe is opened again through /proc/self/fd on Linux only")
    void aPipeIsWrittenThroughANonBlockingDescriptionOfTheStreamsOwnLeavingTheDescriptorAsItWas() throws Exception {
        PosixLib p = PosixDescriptors.binding();
        int flags = p.libc().fcntl(writeEnd, PosixConstants.F_GETFL);
        String pipe = Files.readSymbolicLink(Path.of("/proc/self/fd/" + writeEnd)).toString();
        byte[] sent = new byte[60_000]; // within what the pipe holds, and many times PIPE_BUF
        for (int i = 0; i < sent.length; i++) {
            sent[i] = (byte) (i * 7);
        }
        DescriptorStream out = posix.open(writeEnd);
        out.write(sent, 0, sent.length);
        List<Integer> own = descriptorsOf(pipe);
        own.remove(Integer.valueOf(writeEnd));
        assertEquals(1, own.size(), "one description of the stream's own on the pipe: " + own);
        int nonBlocking = 04000;
        assertTrue((p.libc().fcntl(own.get(0), PosixConstants.F_GETFL) & nonBlocking) != 0, "it does not block");
        assertEquals(PosixConstants.FD_CLOEXEC, p.libc().fcntl(own.get(0), PosixConstants.F_GETFD) & PosixConstants.FD_CLOEXEC);
        assertEquals(flags, p.libc().fcntl(writeEnd, PosixConstants.F_GETFL), "the shared description is left as it was");

        out.close();
        assertEquals(List.of(writeEnd), descriptorsOf(pipe), "closing the stream frees its description");
        posix.close(writeEnd);
        writeEnd = -1;
        try (DescriptorStream in = posix.open(readEnd)) {
            byte[] got = new byte[sent.length];
            int n = 0;
            for (int r; n < got.length && (r = in.read(got, n, got.length - n)) > 0; ) {
                n += r;
            }
            assertArrayEquals(sent, got);
            assertEquals(-1, in.read(new byte[1], 0, 1), "end of input: nothing holds the write end any more");
        }
    }

    /** The write-end descriptors of this process that name {@code pipe} ({@code pipe:[inode]}). */
    private static List<Integer> descriptorsOf(String pipe) throws Exception {
        List<Integer> fds = new ArrayList<>();
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            for (Path link : (Iterable<Path>) s::iterator) {
                try {
                    int fd = Integer.parseInt(link.getFileName().toString());
                    if (Files.readSymbolicLink(link).toString().equals(pipe)
                            && (PosixDescriptors.binding().libc().fcntl(fd, PosixConstants.F_GETFL) & PosixConstants.O_ACCMODE) == PosixConstants.O_WRONLY) {
                        fds.add(fd);
                    }
                } catch (java.io.IOException closedMeanwhile) {
                    // the listing's own descriptor, gone by now
                }
            }
        }
        Collections.sort(fds);
        return fds;
    }

    /** {@code socketpair(2)}, which the provider's own binding does not need. */
    interface Sockets extends com.sun.jna.Library {
        int socketpair(int domain, int type, int protocol, int[] fds);
    }

    @Test
    void aSocketPeerThatClosedWithDataUnreadIsEndOfInputNotAnError() throws Exception {
        int[] pair = new int[2];
        Sockets sockets = com.sun.jna.Native.load("c", Sockets.class);
        assertEquals(0, sockets.socketpair(1 /* AF_UNIX */, 1 /* SOCK_STREAM */, 0, pair), "socketpair");
        try (DescriptorStream server = posix.open(pair[0])) {
            byte[] b = "x".getBytes(StandardCharsets.UTF_8);
            server.write(b, 0, 1); // the peer never reads it
            posix.close(pair[1]);  // on Linux the server's next read then fails with ECONNRESET
            assertEquals(-1, server.read(new byte[8], 0, 8), "the client is gone: end of input");
        } finally {
            posix.close(pair[0]);
        }
    }

    /**
     * How many open descriptors are pipes: the self-pipe's two ends count, and the JVM's own
     * descriptors (jars, sockets, files other threads open and close meanwhile) do not.
     */
    private long openPipeCount() throws Exception {
        try (var s = Files.list(Path.of("/dev/fd"))) {
            return s.map(p -> Integer.parseInt(p.getFileName().toString())).filter(this::isPipe).count();
        }
    }

    private boolean isPipe(int fd) {
        try {
            return posix.identity(fd).kind() == io.mcpwire.platform.FileIdentity.Kind.PIPE;
        } catch (DescriptorException closedMeanwhile) {
            return false;
        }
    }
}
