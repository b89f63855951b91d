package io.mcpwire.platform.rules.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.NativeMemory;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shared POSIX rules over a scripted C library: the calls they make and what they make of the answers. */
class PosixPlatformTest {

    /** Answers from a script: each call is logged, and returns the next scripted result or 0. */
    static final class ScriptedCLibrary implements CLibrary {
        final List<String> calls = new ArrayList<>();
        final Deque<int[]> results = new ArrayDeque<>(); // {result, errno}
        final Map<Integer, String> paths = new HashMap<>();
        private int errno;

        ScriptedCLibrary answer(int result, int errno) {
            results.add(new int[] {result, errno});
            return this;
        }

        private int next(String call) {
            calls.add(call);
            int[] r = results.isEmpty() ? new int[] {0, 0} : results.poll();
            errno = r[1];
            return r[0];
        }

        @Override public int fcntl(int fd, int cmd) { return next("fcntl(" + fd + ", " + cmd + ")"); }
        @Override public int fcntl(int fd, int cmd, int arg) { return next("fcntl(" + fd + ", " + cmd + ", " + arg + ")"); }
        @Override public String fcntlPath(int fd, int cmd) { calls.add("F_GETPATH(" + fd + ")"); return paths.get(fd); }
        @Override public int open(String path, int flags) { return next("open(" + path + ", 0x" + Integer.toHexString(flags) + ")"); }
        @Override public int open(String path, int flags, int mode) { return next("open(" + path + ", 0x" + Integer.toHexString(flags) + ", 0" + Integer.toOctalString(mode) + ")"); }
        @Override public int dup2(int source, int target) { return next("dup2(" + source + ", " + target + ")"); }
        @Override public int close(int fd) { return next("close(" + fd + ")"); }
        @Override public int isatty(int fd) { return 0; }
        @Override public int pipe(int[] fds) { return next("pipe"); }
        @Override public String strerror(int e) { return "scripted error " + e; }
        @Override public int errno() { return errno; }
        @Override public NativeMemory allocate(long bytes) { return keepingMemory ? new ArrayMemory(bytes) : new UnusedMemory(); }
        @Override public long read(int fd, NativeMemory buffer, long count) { return next("read(" + fd + ")"); }
        @Override public long write(int fd, NativeMemory buffer, long offset, long count) { return next("write(" + fd + ")"); }
        @Override public int poll(NativeMemory fds, int nfds, int timeoutMillis, boolean nfdsIsInt) { return next("poll"); }
        @Override public int pidfdOpen(int pid) { return next("pidfd_open(" + pid + ")"); }
        @Override public int kqueue() { return next("kqueue"); }

        /** Each change applied is recorded as it was laid out; a wait's event is the next of {@link #events}. */
        @Override
        public int kevent(int kq, NativeMemory changes, int nchanges, NativeMemory events, int nevents) {
            byte[] raw = new byte[KqueueExits.KEVENT_SIZE];
            if (nchanges > 0) {
                changes.read(0, raw, 0, raw.length);
                KqueueExits.Kevent c = KqueueExits.Kevent.of(raw);
                return next("kevent(" + kq + ", add " + c.ident() + " filter " + c.filter() + " flags " + c.flags()
                        + " fflags 0x" + Integer.toHexString(c.fflags()) + ")");
            }
            int n = next("kevent(" + kq + ", wait " + nevents + ")");
            if (n > 0) {
                events.write(0, this.events.poll().bytes(), 0, raw.length);
            }
            return n;
        }

        /** The events the next waits return, in order. */
        final Deque<KqueueExits.Kevent> events = new ArrayDeque<>();
        /** Whether allocated memory keeps what is written (the kqueue wait reads its event back), or drops it. */
        boolean keepingMemory;
    }

    /** Native memory over a Java array, in native byte order: what is written can be read back. */
    static final class ArrayMemory implements NativeMemory {
        private final java.nio.ByteBuffer bytes;

        ArrayMemory(long size) {
            bytes = java.nio.ByteBuffer.allocate((int) size).order(java.nio.ByteOrder.nativeOrder());
        }

        @Override public void putInt(long offset, int value) { bytes.putInt((int) offset, value); }
        @Override public short getShort(long offset) { return bytes.getShort((int) offset); }
        @Override public void write(long offset, byte[] source, int from, int n) { bytes.put((int) offset, source, from, n); }
        @Override public void read(long offset, byte[] target, int to, int n) { bytes.get((int) offset, target, to, n); }
    }

    /** The scripted reads, writes and polls never touch their buffers. */
    private static final class UnusedMemory implements NativeMemory {
        @Override public void putInt(long offset, int value) { }
        @Override public short getShort(long offset) { return 0; }
        @Override public void write(long offset, byte[] source, int from, int n) { }
        @Override public void read(long offset, byte[] target, int to, int n) { }
    }

    private final ScriptedCLibrary libc = new ScriptedCLibrary();

    private PosixPlatform on(PosixConstants constants) {
        return new PosixPlatform(NativeBinding.of("scripted libc", new PosixLib(libc, constants))) {
            @Override
            public String name() {
                return "scripted";
            }

            @Override
            public int priority() {
                return 0;
            }
        };
    }

    @Test
    void thePrivateDuplicateIsOneAtomicCloseOnExecDuplicateFromThree() throws Exception {
        libc.answer(5, 0);
        assertEquals(5, on(PosixConstants.LINUX).duplicateAboveStandard(1));
        assertEquals(List.of("fcntl(1, 1030, 3)"), libc.calls, "F_DUPFD_CLOEXEC from 3: no moment with an inheritable copy");
        libc.calls.clear();
        libc.answer(6, 0);
        on(PosixConstants.MACOS).duplicateAboveStandard(1);
        assertEquals(List.of("fcntl(1, 67, 3)"), libc.calls, "macOS's F_DUPFD_CLOEXEC");
    }

    @Test
    void dup2IsRetriedAfterEintrOnlyAndAFailureNamesTheErrno() throws Exception {
        libc.answer(-1, PosixConstants.EINTR).answer(0, 0);
        on(PosixConstants.LINUX).duplicateOnto(4, 0);
        assertEquals(List.of("dup2(4, 0)", "dup2(4, 0)"), libc.calls);
        libc.answer(-1, PosixConstants.EBADF);
        DescriptorException e = assertThrows(DescriptorException.class, () -> on(PosixConstants.LINUX).duplicateOnto(4, 0));
        assertTrue(e.getMessage().contains("dup2(4, 0)") && e.getMessage().contains("EBADF"), e.getMessage());
        assertEquals(PosixConstants.EBADF, e.errorCode());
    }

    @Test
    void theDiversionsAreOpenedCloseOnExec() throws Exception {
        libc.answer(3, 0);
        on(PosixConstants.LINUX).openNullDevice(Access.WRITE);
        assertEquals("open(/dev/null, 0x" + Integer.toHexString(PosixConstants.O_WRONLY | 0x80000) + ")", libc.calls.get(0));
        libc.answer(4, 0);
        on(PosixConstants.LINUX).openAppend("/tmp/stray.log");
        assertEquals("open(/tmp/stray.log, 0x" + Integer.toHexString(PosixConstants.O_WRONLY | 02000 | 0100 | 0x80000) + ", 0644)",
                libc.calls.get(1));
    }

    @Test
    void theOriginIsClosedOnEbadfTheProcessesOwnWhenCloseOnExecOrTheJvmsFileElseInherited() throws Exception {
        PosixPlatform macos = on(PosixConstants.MACOS);
        libc.answer(-1, PosixConstants.EBADF);
        assertEquals(StandardOrigin.CLOSED, macos.standardOrigin(0));
        libc.answer(PosixConstants.FD_CLOEXEC, 0);
        assertEquals(StandardOrigin.PROCESS_OWN, macos.standardOrigin(0), "no descriptor passed through exec is close-on-exec");
        libc.answer(0, 0);
        libc.paths.put(0, Path.of(System.getProperty("java.home"), "lib", "modules").toString());
        assertEquals(StandardOrigin.PROCESS_OWN, macos.standardOrigin(0), "the JVM's module image, found by F_GETPATH");
        libc.answer(0, 0);
        libc.paths.remove(0); // a pipe: F_GETPATH gives no path
        assertEquals(StandardOrigin.INHERITED, macos.standardOrigin(0));
        libc.answer(-1, 5);
        DescriptorException e = assertThrows(DescriptorException.class, () -> macos.standardOrigin(0));
        assertTrue(e.getMessage().contains("F_GETFD") && e.getMessage().contains("EIO"), e.getMessage());
    }

    @Test
    void closeIsNeverRetried() {
        libc.answer(-1, PosixConstants.EINTR);
        assertThrows(DescriptorException.class, () -> on(PosixConstants.LINUX).close(7));
        assertEquals(List.of("close(7)"), libc.calls, "an interrupted close has still freed the descriptor on Linux");
    }

    @Test
    void describeSaysWhatFGetpathGivesAndNeverThrows() {
        libc.paths.put(1, "/Users/someone/out.log");
        assertEquals("F_GETPATH /Users/someone/out.log", on(PosixConstants.MACOS).describe(1));
        assertTrue(on(PosixConstants.MACOS).describe(0).startsWith("F_GETPATH failed"), on(PosixConstants.MACOS).describe(0));
    }
}
