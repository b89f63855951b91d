package io.mcpwire.platform.ffm;

import static io.mcpwire.platform.ffm.Foreign.LINKER;
import static io.mcpwire.platform.ffm.Foreign.failed;
import static io.mcpwire.platform.ffm.Foreign.state;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.mcpwire.platform.ffm.Foreign.Lazy;
import io.mcpwire.platform.ffm.Foreign.Memory;
import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.windows.Win32;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The Windows calls through {@code java.lang.foreign} (Java 22), 64-bit: the Universal C Runtime
 * ({@code ucrtbase}) and {@code kernel32}, with {@code kernelbase}'s {@code CompareObjectHandles}
 * where it exists. C runtime calls capture {@code errno} and Win32 calls {@code GetLastError()}
 * into the calling thread's state segment. Around each C runtime call the thread's
 * invalid-parameter handler is an upcall that ignores the report, so that a descriptor that is
 * not open gives {@code EBADF} instead of the release runtime's fast-fail. Handles and
 * {@code intptr_t} travel as 64-bit integers, {@code DWORD} and {@code BOOL} as 32-bit ones.
 */
public final class ForeignWin32 implements Win32 {
    private static final long ERRNO = Foreign.capturedOffset("errno");
    private static final long LAST_ERROR = Foreign.capturedOffset("GetLastError");
    private static final int DUPLICATE_SAME_ACCESS = 2;
    private static final int THREAD_TERMINATE = 1;
    private static final int BY_HANDLE_FILE_INFORMATION = 52;

    private final SymbolLookup ucrt;
    private final SymbolLookup kernel32;
    private final Optional<MemorySegment> compareObjectHandlesSymbol;
    /** The ignoring handler, an upcall stub that lives as long as the JVM. */
    private final MemorySegment ignoreHandler;

    private final Lazy setHandler = plain("ucrt", FunctionDescriptor.of(ADDRESS, ADDRESS), "_set_thread_local_invalid_parameter_handler");
    private final Lazy getOsfHandle = crt("_get_osfhandle", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
    private final Lazy openOsfHandle = crt("_open_osfhandle", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
    private final Lazy dup2 = crt("_dup2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private final Lazy wopen = crtVariadic("_wopen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), 2);
    private final Lazy close = crt("_close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private final Lazy getCurrentProcess = plain("kernel32", FunctionDescriptor.of(JAVA_LONG), "GetCurrentProcess");
    private final Lazy duplicateHandle = win("DuplicateHandle",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT));
    private final Lazy closeHandle = win("CloseHandle", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private final Lazy getStdHandle = win("GetStdHandle", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
    private final Lazy setStdHandle = win("SetStdHandle", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    private final Lazy getFileType = win("GetFileType", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private final Lazy getConsoleMode = win("GetConsoleMode", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
    private final Lazy getFileInformation = win("GetFileInformationByHandle", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
    private final Lazy readFile = win("ReadFile", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
    private final Lazy writeFile = win("WriteFile", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
    private final Lazy getCurrentThreadId = plain("kernel32", FunctionDescriptor.of(JAVA_INT), "GetCurrentThreadId");
    private final Lazy openThread = win("OpenThread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT));
    private final Lazy cancelSynchronousIo = win("CancelSynchronousIo", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private final Lazy compareObjectHandles;

    private ForeignWin32() throws ReflectiveOperationException {
        ucrt = SymbolLookup.libraryLookup("ucrtbase", Arena.global());
        kernel32 = SymbolLookup.libraryLookup("kernel32", Arena.global());
        Optional<MemorySegment> compare;
        try {
            compare = SymbolLookup.libraryLookup("kernelbase", Arena.global()).find("CompareObjectHandles");
        } catch (IllegalArgumentException noKernelBase) {
            compare = Optional.empty(); // handles are then compared conservatively
        }
        compareObjectHandlesSymbol = compare;
        compareObjectHandles = new Lazy(() -> LINKER.downcallHandle(compareObjectHandlesSymbol.orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG)));
        ignoreHandler = LINKER.upcallStub(
                MethodHandles.lookup().findStatic(ForeignWin32.class, "ignoreInvalidParameter",
                        MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, long.class)),
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG), Arena.global());
    }

    /** Binds the libraries; throws what the lookup or the linker threw. */
    public static ForeignWin32 load() throws ReflectiveOperationException {
        return new ForeignWin32();
    }

    /** The invalid-parameter handler: ignores the report, so the function returns its error value and sets errno. */
    private static void ignoreInvalidParameter(MemorySegment expression, MemorySegment function, MemorySegment file, int line, long reserved) {
    }

    private MemorySegment symbol(String library, String name) {
        SymbolLookup lookup = library.equals("ucrt") ? ucrt : kernel32;
        return lookup.find(name).orElseThrow(() -> new UnsupportedOperationException(library + " has no " + name));
    }

    private Lazy plain(String library, FunctionDescriptor descriptor, String name) {
        return new Lazy(() -> LINKER.downcallHandle(symbol(library, name), descriptor));
    }

    private Lazy crt(String name, FunctionDescriptor descriptor) {
        return new Lazy(() -> LINKER.downcallHandle(symbol("ucrt", name), descriptor, Linker.Option.captureCallState("errno")));
    }

    private Lazy crtVariadic(String name, FunctionDescriptor descriptor, int firstVariadic) {
        return new Lazy(() -> LINKER.downcallHandle(symbol("ucrt", name), descriptor,
                Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(firstVariadic)));
    }

    private Lazy win(String name, FunctionDescriptor descriptor) {
        return new Lazy(() -> LINKER.downcallHandle(symbol("kernel32", name), descriptor, Linker.Option.captureCallState("GetLastError")));
    }

    /** Runs a C runtime call with the ignoring invalid-parameter handler on this thread, then puts the old one back. */
    private long quietly(String call, CrtCall c) {
        try {
            MemorySegment previous = (MemorySegment) setHandler.get().invokeExact(ignoreHandler);
            try {
                return c.call();
            } finally {
                MemorySegment unused = (MemorySegment) setHandler.get().invokeExact(previous);
            }
        } catch (Throwable t) {
            throw failed(call, t);
        }
    }

    /** One C runtime call. */
    @FunctionalInterface
    private interface CrtCall {
        long call() throws Throwable;
    }

    @Override
    public long getOsfHandle(int fd) {
        return quietly("_get_osfhandle", () -> (long) getOsfHandle.get().invokeExact(state(), fd));
    }

    @Override
    public int openOsfHandle(long handle, int flags) {
        return (int) quietly("_open_osfhandle", () -> (int) openOsfHandle.get().invokeExact(state(), handle, flags));
    }

    @Override
    public int dup2(int source, int target) {
        return (int) quietly("_dup2", () -> (int) dup2.get().invokeExact(state(), source, target));
    }

    @Override
    public int open(String path, int flags) {
        return wopen(path, flags, 0); // without _O_CREAT the mode is not read
    }

    @Override
    public int wopen(String path, int flags, int mode) {
        return (int) quietly("_wopen", () -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment wide = arena.allocateFrom(path, StandardCharsets.UTF_16LE); // NUL-terminated
                return (int) wopen.get().invokeExact(state(), wide, flags, mode);
            }
        });
    }

    @Override
    public int close(int fd) {
        return (int) quietly("_close", () -> (int) close.get().invokeExact(state(), fd));
    }

    @Override
    public int crtErrno() {
        return state().get(JAVA_INT, ERRNO);
    }

    @Override
    public int lastError() {
        return state().get(JAVA_INT, LAST_ERROR);
    }

    @Override
    public long duplicateHandle(long handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment copy = arena.allocate(JAVA_LONG);
            long self = (long) getCurrentProcess.get().invokeExact();
            int ok = (int) duplicateHandle.get().invokeExact(state(), self, handle, self, copy, 0, 0, DUPLICATE_SAME_ACCESS);
            return ok != 0 ? copy.get(JAVA_LONG, 0) : 0;
        } catch (Throwable t) {
            throw failed("DuplicateHandle", t);
        }
    }

    @Override
    public boolean closeHandle(long handle) {
        try {
            return (int) closeHandle.get().invokeExact(state(), handle) != 0;
        } catch (Throwable t) {
            throw failed("CloseHandle", t);
        }
    }

    @Override
    public long getStdHandle(int slot) {
        try {
            return (long) getStdHandle.get().invokeExact(state(), slot);
        } catch (Throwable t) {
            throw failed("GetStdHandle", t);
        }
    }

    @Override
    public boolean setStdHandle(int slot, long handle) {
        try {
            return (int) setStdHandle.get().invokeExact(state(), slot, handle) != 0;
        } catch (Throwable t) {
            throw failed("SetStdHandle", t);
        }
    }

    @Override
    public int getFileType(long handle) {
        try {
            return (int) getFileType.get().invokeExact(state(), handle);
        } catch (Throwable t) {
            throw failed("GetFileType", t);
        }
    }

    @Override
    public boolean isConsole(long handle) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) getConsoleMode.get().invokeExact(state(), handle, arena.allocate(JAVA_INT)) != 0;
        } catch (Throwable t) {
            throw failed("GetConsoleMode", t);
        }
    }

    @Override
    public long[] fileId(long handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(BY_HANDLE_FILE_INFORMATION, 8);
            if ((int) getFileInformation.get().invokeExact(state(), handle, info) == 0) {
                return null;
            }
            long volume = info.get(JAVA_INT, 28) & 0xFFFFFFFFL;
            long index = ((info.get(JAVA_INT, 44) & 0xFFFFFFFFL) << 32) | (info.get(JAVA_INT, 48) & 0xFFFFFFFFL);
            return new long[] {volume, index};
        } catch (Throwable t) {
            throw failed("GetFileInformationByHandle", t);
        }
    }

    @Override
    public Boolean compareObjectHandles(long a, long b) {
        if (compareObjectHandlesSymbol.isEmpty()) {
            return null;
        }
        try {
            return (int) compareObjectHandles.get().invokeExact(a, b) != 0;
        } catch (Throwable t) {
            throw failed("CompareObjectHandles", t);
        }
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return Memory.allocate(bytes);
    }

    @Override
    public int readFile(long handle, NativeMemory buffer, int count) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment read = arena.allocate(JAVA_INT);
            int ok = (int) readFile.get().invokeExact(state(), handle, Memory.of(buffer), count, read, MemorySegment.NULL);
            return ok != 0 ? read.get(JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            throw failed("ReadFile", t);
        }
    }

    @Override
    public int writeFile(long handle, NativeMemory buffer, int offset, int count) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment written = arena.allocate(JAVA_INT);
            int ok = (int) writeFile.get().invokeExact(state(), handle, Memory.of(buffer).asSlice(offset), count, written, MemorySegment.NULL);
            return ok != 0 ? written.get(JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            throw failed("WriteFile", t);
        }
    }

    @Override
    public long openCurrentThread() {
        try {
            int id = (int) getCurrentThreadId.get().invokeExact();
            return (long) openThread.get().invokeExact(state(), THREAD_TERMINATE, 0, id);
        } catch (Throwable t) {
            throw failed("OpenThread", t);
        }
    }

    @Override
    public boolean cancelSynchronousIo(long thread) {
        try {
            return (int) cancelSynchronousIo.get().invokeExact(state(), thread) != 0;
        } catch (Throwable t) {
            throw failed("CancelSynchronousIo", t);
        }
    }
}
