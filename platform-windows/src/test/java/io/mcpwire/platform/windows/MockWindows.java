package io.mcpwire.platform.windows;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.nullable;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.platform.windows.jna.KernelBase;
import io.mcpwire.platform.windows.jna.Ucrt;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Mockito mocks of the provider's JNA bindings, with answers that model a C runtime descriptor
 * table over Win32 handles: each handle names a kernel object, {@code _dup2} duplicates the
 * source's object onto the target (closing the target first), {@code SetStdHandle} fills the
 * standard-handle slots, {@code WriteFile} records what each object received. Failures are
 * switched on per test. Like the release C runtime, {@code _get_osfhandle}, {@code _dup2} and
 * {@code _close} on a descriptor that is not open end the process (here: throw {@link FastFail})
 * unless the calling thread has suppressed the invalid-parameter handler.
 */
final class MockWindows {
    final Ucrt ucrt = mock(Ucrt.class);
    final Kernel32 kernel32 = mock(Kernel32.class);
    final KernelBase kernelBase = mock(KernelBase.class);
    final Map<Integer, Long> fds = new TreeMap<>();
    final Map<Long, String> objects = new HashMap<>();
    final Map<Integer, Long> slots = new HashMap<>();
    final Map<String, ByteArrayOutputStream> written = new HashMap<>();
    int errno;
    int lastError;
    private long nextHandle = 0x100;

    /** dup2 onto this target fails this many times (-1: none). */
    int dup2FailTarget = -1;
    int dup2Failures;
    boolean dup2Destroys;
    /** close of this descriptor fails once (-1: none). */
    int closeFailFd = -1;
    /** the next _open_osfhandle or _dup lands on this descriptor (-1: lowest free). */
    int forceOpenOsfhandleFd = -1;
    boolean setStdHandleFails;
    /** Whether the calling thread's invalid-parameter handler is suppressed. */
    private final ThreadLocal<Boolean> suppressed = ThreadLocal.withInitial(() -> false);

    /** What the release C runtime does on an invalid parameter with no handler: the process dies. */
    static final class FastFail extends Error {
        private static final long serialVersionUID = 1L;

        FastFail(String call) {
            super(call + " on a descriptor that is not open, with the invalid-parameter handler not "
                    + "suppressed: the real C runtime ends the process here (0xC0000409)");
        }
    }

    private void requireOpenOrSuppressed(String call, int fd) {
        if (!fds.containsKey(fd) && !suppressed.get()) {
            throw new FastFail(call + "(" + fd + ")");
        }
    }

    MockWindows() {
        fds.put(0, handle("stdin pipe"));
        fds.put(1, handle("stdout pipe"));
        fds.put(2, handle("stderr pipe"));
        slots.put(WindowsPlatform.STD_SLOTS[0], fds.get(0));
        slots.put(WindowsPlatform.STD_SLOTS[1], fds.get(1));
        slots.put(WindowsPlatform.STD_SLOTS[2], fds.get(2));

        when(ucrt._set_thread_local_invalid_parameter_handler(any(Ucrt.InvalidParameterHandler.class))).thenAnswer(i -> {
            suppressed.set(true);
            return null; // no handler before
        });
        when(ucrt._set_thread_local_invalid_parameter_handler(nullable(Pointer.class))).thenAnswer(i -> {
            suppressed.set(i.getArgument(0) != null);
            return null;
        });
        when(ucrt._get_osfhandle(anyInt())).thenAnswer(i -> {
            requireOpenOrSuppressed("_get_osfhandle", i.getArgument(0));
            return fds.getOrDefault((Integer) i.getArgument(0), -1L);
        });
        when(kernel32.GetStdHandle(anyInt())).thenAnswer(i -> slots.getOrDefault((Integer) i.getArgument(0), 0L));
        when(ucrt._wopen(any(), anyInt(), anyInt())).thenAnswer(i -> {
            int fd = lowestFree();
            fds.put(fd, handle("file " + i.getArgument(0)));
            return fd;
        });
        when(ucrt._get_errno(any())).thenAnswer(i -> {
            ((IntByReference) i.getArgument(0)).setValue(errno);
            return 0;
        });
        when(kernel32.GetCurrentProcess()).thenReturn(-1L);
        when(kernel32.DuplicateHandle(anyLong(), anyLong(), anyLong(), any(), anyInt(), anyBoolean(), anyInt())).thenAnswer(i -> {
            String object = objects.get((Long) i.getArgument(1));
            if (object == null) {
                lastError = 6;
                return false;
            }
            ((LongByReference) i.getArgument(3)).setValue(handle(object));
            return true;
        });
        when(ucrt._open_osfhandle(anyLong(), anyInt())).thenAnswer(i -> {
            int fd = forceOpenOsfhandleFd >= 0 ? forceOpenOsfhandleFd : lowestFree();
            forceOpenOsfhandleFd = -1;
            fds.put(fd, i.getArgument(0));
            return fd;
        });
        when(ucrt._dup(anyInt())).thenAnswer(i -> {
            int source = i.getArgument(0);
            requireOpenOrSuppressed("_dup", source);
            int fd = forceOpenOsfhandleFd >= 0 ? forceOpenOsfhandleFd : lowestFree();
            forceOpenOsfhandleFd = -1;
            fds.put(fd, handle(objects.get(fds.get(source))));
            return fd;
        });
        when(kernel32.SetHandleInformation(anyLong(), anyInt(), anyInt())).thenAnswer(i -> objects.containsKey((Long) i.getArgument(0)));
        when(ucrt._open(anyString(), anyInt())).thenAnswer(i -> {
            int fd = lowestFree();
            fds.put(fd, handle("NUL"));
            return fd;
        });
        when(ucrt._dup2(anyInt(), anyInt())).thenAnswer(i -> {
            int source = i.getArgument(0);
            int target = i.getArgument(1);
            requireOpenOrSuppressed("_dup2", source);
            if (target == dup2FailTarget && dup2Failures > 0) {
                dup2Failures--;
                errno = 9;
                if (dup2Destroys) {
                    fds.remove(target);
                }
                return -1;
            }
            if (!fds.containsKey(source)) {
                errno = 9;
                return -1;
            }
            fds.put(target, handle(objects.get(fds.get(source))));
            return 0;
        });
        when(ucrt._close(anyInt())).thenAnswer(i -> {
            int fd = i.getArgument(0);
            requireOpenOrSuppressed("_close", fd);
            if (fds.remove(fd) == null) {
                errno = 9;
                return -1;
            }
            if (fd == closeFailFd) {
                closeFailFd = -1;
                errno = 5;
                return -1; // freed all the same, as a failing close may
            }
            return 0;
        });
        when(kernel32.SetStdHandle(anyInt(), anyLong())).thenAnswer(i -> {
            if (setStdHandleFails) {
                lastError = 6;
                return false;
            }
            slots.put(i.getArgument(0), i.getArgument(1));
            return true;
        });
        when(kernel32.GetFileType(anyLong())).thenReturn(WindowsPlatform.FILE_TYPE_PIPE);
        when(kernelBase.CompareObjectHandles(anyLong(), anyLong())).thenAnswer(i ->
                objects.get((Long) i.getArgument(0)).equals(objects.get((Long) i.getArgument(1))));
        when(kernel32.OpenThread(anyInt(), anyBoolean(), anyInt())).thenReturn(0x999L);
        when(kernel32.WriteFile(anyLong(), any(), anyInt(), any(), any())).thenAnswer(i -> {
            Pointer p = i.getArgument(1);
            int n = i.getArgument(2);
            written.computeIfAbsent(objects.get((Long) i.getArgument(0)), k -> new ByteArrayOutputStream())
                    .write(p.getByteArray(0, n), 0, n);
            ((IntByReference) i.getArgument(3)).setValue(n);
            return true;
        });
    }

    WindowsDescriptors provider() {
        return new WindowsDescriptors(new WindowsDescriptors.Libraries(ucrt, kernel32, kernelBase, () -> lastError));
    }

    long handle(String object) {
        long h = nextHandle;
        nextHandle += 4;
        objects.put(h, object);
        return h;
    }

    private int lowestFree() {
        int fd = 0;
        while (fds.containsKey(fd)) {
            fd++;
        }
        return fd;
    }

    /** The object fd refers to, or "closed". */
    String objectAt(int fd) {
        Long h = fds.get(fd);
        return h == null ? "closed" : objects.get(h);
    }

    /** The object a standard-handle slot refers to. */
    String slot(int stdHandle) {
        return objects.get(slots.get(stdHandle));
    }

    String writtenTo(String object) {
        ByteArrayOutputStream b = written.get(object);
        return b == null ? "" : b.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
