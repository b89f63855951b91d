package io.mcpwire.platform.ffm;

import static io.mcpwire.platform.ffm.Foreign.LINKER;
import static io.mcpwire.platform.ffm.Foreign.failed;
import static io.mcpwire.platform.ffm.Foreign.state;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.mcpwire.platform.ffm.Foreign.Memory;
import io.mcpwire.platform.rules.NativeMemory;
import io.mcpwire.platform.rules.windows.FileInformation;
import io.mcpwire.platform.rules.windows.Win32;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The Windows calls through {@code java.lang.foreign} (Java 22), 64-bit: the Universal C Runtime
 * ({@code ucrtbase}) and {@code kernel32}, with {@code kernelbase}'s {@code CompareObjectHandles}
 * where it exists. The same binding style as {@link ForeignCLibrary}.
 *
 * <p>Every call goes through one of two call shapes, both seven 64-bit integer arguments and a
 * 64-bit result: one captures {@code errno} and {@code GetLastError()} into the calling thread's
 * state segment, the other captures nothing (for the calls made around another, so that they do
 * not overwrite what it left). On Windows x64 and on Windows arm64 every integer, {@code DWORD},
 * {@code BOOL}, handle and pointer travels in a 64-bit register or stack slot, the caller owns the
 * stack it passes, a callee ignores arguments it does not take and reads the low 32 bits of a
 * 32-bit one, and variadic integer arguments ({@code _wopen}'s mode) travel like fixed ones; a
 * 32-bit result is the low half of the 64-bit one. Two shapes mean two downcall stubs, where one
 * per signature cost some 10 ms of start-up each.
 *
 * <p>Around each C runtime call the thread's invalid-parameter handler is an upcall that ignores
 * the report, so that a descriptor that is not open gives {@code EBADF} instead of the release
 * runtime's fast-fail.
 */
public final class ForeignWin32 implements Win32 {
    private static final long ERRNO = Foreign.capturedOffset("errno");
    private static final long LAST_ERROR = Foreign.capturedOffset("GetLastError");
    private static final int DUPLICATE_SAME_ACCESS = 2;
    private static final int THREAD_TERMINATE = 1;
    /** {@code SYNCHRONIZE}: the access a wait on a process's handle needs. */
    private static final int SYNCHRONIZE = 0x00100000;
    /** {@code INFINITE}, as the 32-bit {@code DWORD} it is. */
    private static final long INFINITE = 0xFFFFFFFFL;
    private static final int HANDLE_FLAG_INHERIT = 1;
    private static final int HANDLE_FLAG_PROTECT_FROM_CLOSE = 2;
    private static final FunctionDescriptor WORDS = FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);

    /** {@code (function, state, a .. g)}: captures {@code errno} and {@code GetLastError()}. */
    private final MethodHandle captured = LINKER.downcallHandle(WORDS, Linker.Option.captureCallState("errno", "GetLastError"));
    /** {@code (function, a .. g)}: captures nothing. */
    private final MethodHandle plain = LINKER.downcallHandle(WORDS);

    private final SymbolLookup ucrt = SymbolLookup.libraryLookup("ucrtbase", Arena.global());
    private final SymbolLookup kernel32 = SymbolLookup.libraryLookup("kernel32", Arena.global());

    private final WinFunction setHandler = new WinFunction(ucrt, "_set_thread_local_invalid_parameter_handler", plain);
    private final WinFunction getOsfHandle = new WinFunction(ucrt, "_get_osfhandle", captured);
    private final WinFunction openOsfHandle = new WinFunction(ucrt, "_open_osfhandle", captured);
    private final WinFunction dup = new WinFunction(ucrt, "_dup", captured);
    private final WinFunction dup2 = new WinFunction(ucrt, "_dup2", captured);
    private final WinFunction pipe = new WinFunction(ucrt, "_pipe", captured);
    private final WinFunction wopen = new WinFunction(ucrt, "_wopen", captured);
    private final WinFunction close = new WinFunction(ucrt, "_close", captured);
    private final WinFunction getCurrentProcess = new WinFunction(kernel32, "GetCurrentProcess", plain);
    private final WinFunction getCurrentThreadId = new WinFunction(kernel32, "GetCurrentThreadId", plain);
    private final WinFunction duplicateHandle = new WinFunction(kernel32, "DuplicateHandle", captured);
    private final WinFunction closeHandle = new WinFunction(kernel32, "CloseHandle", captured);
    private final WinFunction getStdHandle = new WinFunction(kernel32, "GetStdHandle", captured);
    private final WinFunction setStdHandle = new WinFunction(kernel32, "SetStdHandle", captured);
    private final WinFunction getFileType = new WinFunction(kernel32, "GetFileType", captured);
    private final WinFunction getConsoleMode = new WinFunction(kernel32, "GetConsoleMode", captured);
    private final WinFunction getFileInformation = new WinFunction(kernel32, "GetFileInformationByHandle", captured);
    private final WinFunction openThread = new WinFunction(kernel32, "OpenThread", captured);
    private final WinFunction cancelSynchronousIo = new WinFunction(kernel32, "CancelSynchronousIo", captured);
    private final WinFunction setHandleInformation = new WinFunction(kernel32, "SetHandleInformation", captured);
    private final WinFunction cancelIoEx = new WinFunction(kernel32, "CancelIoEx", captured);
    private final WinFunction getHandleInformation = new WinFunction(kernel32, "GetHandleInformation", captured);
    private final WinFunction getCurrentThread = new WinFunction(kernel32, "GetCurrentThread", plain);
    private final WinFunction getCurrentProcessorNumber = new WinFunction(kernel32, "GetCurrentProcessorNumber", plain);
    private final WinFunction setThreadAffinityMask = new WinFunction(kernel32, "SetThreadAffinityMask", captured);
    private final WinFunction createJobObject = new WinFunction(kernel32, "CreateJobObjectW", captured);
    private final WinFunction openProcess = new WinFunction(kernel32, "OpenProcess", captured);
    private final WinFunction createEvent = new WinFunction(kernel32, "CreateEventW", captured);
    private final WinFunction setEventCall = new WinFunction(kernel32, "SetEvent", captured);
    private final WinFunction waitForMultipleObjects = new WinFunction(kernel32, "WaitForMultipleObjects", captured);
    private final WinFunction setInformationJobObject = new WinFunction(kernel32, "SetInformationJobObject", captured);
    private final WinFunction assignProcessToJobObject = new WinFunction(kernel32, "AssignProcessToJobObject", captured);
    /** Called by their own methods, so that a thread blocked in one shows it on top of its stack. */
    private final MemorySegment readFile = symbol(kernel32, "ReadFile");
    private final MemorySegment writeFile = symbol(kernel32, "WriteFile");
    /** Windows 10 1607 and later; handles are compared conservatively where it is missing. */
    private final Optional<WinFunction> compareObjectHandles = compareObjectHandles(captured);
    /** The ignoring handler, an upcall stub that lives as long as the JVM. */
    private final MemorySegment ignoreHandler;

    private ForeignWin32() throws ReflectiveOperationException {
        ignoreHandler = LINKER.upcallStub(
                MethodHandles.lookup().findStatic(ForeignWin32.class, "ignoreInvalidParameter",
                        MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, long.class)),
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG), Arena.global());
    }

    /** A Windows function and the call shape it goes through. */
    private record WinFunction(String name, MemorySegment address, MethodHandle shape, boolean captures) {
        WinFunction(SymbolLookup library, String name, MethodHandle shape) {
            this(name, symbol(library, name), shape, shape.type().parameterCount() == 9);
        }

        long call(long a, long b, long c, long d, long e, long f, long g) {
            try {
                return captures ? (long) shape.invokeExact(address, state(), a, b, c, d, e, f, g)
                        : (long) shape.invokeExact(address, a, b, c, d, e, f, g);
            } catch (Throwable t) {
                throw failed(name, t);
            }
        }

        long call(long a, long b, long c) {
            return call(a, b, c, 0, 0, 0, 0);
        }

        long call(long a) {
            return call(a, 0, 0, 0, 0, 0, 0);
        }

        long call() {
            return call(0, 0, 0, 0, 0, 0, 0);
        }
    }

    /** Binds the libraries; throws what the lookup or the linker threw, or on a 32-bit system. */
    public static ForeignWin32 load() throws ReflectiveOperationException {
        if (ADDRESS.byteSize() != Long.BYTES) {
            throw new UnsupportedOperationException("needs a 64-bit system (pointers here are " + ADDRESS.byteSize() + " bytes)");
        }
        return new ForeignWin32();
    }

    private static MemorySegment symbol(SymbolLookup library, String name) {
        return library.find(name).orElseThrow(() -> new UnsupportedOperationException("no " + name + " to bind"));
    }

    private static Optional<WinFunction> compareObjectHandles(MethodHandle shape) {
        try {
            return SymbolLookup.libraryLookup("kernelbase", Arena.global()).find("CompareObjectHandles")
                    .map(address -> new WinFunction("CompareObjectHandles", address, shape, true));
        } catch (IllegalArgumentException noKernelBase) {
            return Optional.empty();
        }
    }

    /** The invalid-parameter handler: ignores the report, so the function returns its error value and sets errno. */
    private static void ignoreInvalidParameter(MemorySegment expression, MemorySegment function, MemorySegment file, int line, long reserved) {
    }

    /** Runs a C runtime call with the ignoring invalid-parameter handler on this thread, then puts the old one back. */
    private long quietly(CrtCall c) {
        long previous = setHandler.call(ignoreHandler.address());
        try {
            return c.call();
        } finally {
            setHandler.call(previous);
        }
    }

    /** One C runtime call. */
    @FunctionalInterface
    private interface CrtCall {
        long call();
    }

    @Override
    public long getOsfHandle(int fd) {
        return quietly(() -> getOsfHandle.call(fd));
    }

    @Override
    public int openOsfHandle(long handle, int flags) {
        return (int) quietly(() -> openOsfHandle.call(handle, flags, 0));
    }

    @Override
    public int dup(int fd) {
        return (int) quietly(() -> dup.call(fd));
    }

    @Override
    public int pipe(int[] fds, int size, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ends = arena.allocate(JAVA_INT, 2);
            int r = (int) quietly(() -> pipe.call(ends.address(), size, flags));
            fds[0] = ends.getAtIndex(JAVA_INT, 0);
            fds[1] = ends.getAtIndex(JAVA_INT, 1);
            return r;
        }
    }

    @Override
    public int dup2(int source, int target) {
        return (int) quietly(() -> dup2.call(source, target, 0));
    }

    @Override
    public int open(String path, int flags) {
        return wopen(path, flags, 0); // without _O_CREAT the mode is not read
    }

    @Override
    public int wopen(String path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment wide = arena.allocateFrom(path, StandardCharsets.UTF_16LE); // NUL-terminated
            return (int) quietly(() -> wopen.call(wide.address(), flags, mode));
        }
    }

    @Override
    public int close(int fd) {
        return (int) quietly(() -> close.call(fd));
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
    public long duplicateHandle(long handle, boolean inheritable) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment copy = arena.allocate(JAVA_LONG);
            long self = getCurrentProcess.call();
            int ok = (int) duplicateHandle.call(self, handle, self, copy.address(), 0, inheritable ? 1 : 0, DUPLICATE_SAME_ACCESS);
            return ok != 0 ? copy.get(JAVA_LONG, 0) : 0;
        }
    }

    @Override
    public boolean setInheritable(long handle, boolean inheritable) {
        return (int) setHandleInformation.call(handle, HANDLE_FLAG_INHERIT, inheritable ? HANDLE_FLAG_INHERIT : 0) != 0;
    }

    @Override
    public boolean cancelIo(long handle) {
        return (int) cancelIoEx.call(handle, 0, 0) != 0;
    }

    @Override
    public boolean closeHandle(long handle) {
        return (int) closeHandle.call(handle) != 0;
    }

    @Override
    public long getStdHandle(int slot) {
        return getStdHandle.call(slot);
    }

    @Override
    public boolean setStdHandle(int slot, long handle) {
        return (int) setStdHandle.call(slot, handle, 0) != 0;
    }

    @Override
    public int getFileType(long handle) {
        return (int) getFileType.call(handle);
    }

    @Override
    public boolean isConsole(long handle) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) getConsoleMode.call(handle, arena.allocate(JAVA_INT).address(), 0) != 0;
        }
    }

    @Override
    public long[] fileId(long handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(FileInformation.SIZE, 8);
            if ((int) getFileInformation.call(handle, info.address(), 0) == 0) {
                return null;
            }
            return FileInformation.id(offset -> info.get(JAVA_INT, offset));
        }
    }

    @Override
    public Boolean compareObjectHandles(long a, long b) {
        return compareObjectHandles.map(f -> (int) f.call(a, b, 0) != 0).orElse(null);
    }

    @Override
    public NativeMemory allocate(long bytes) {
        return Memory.allocate(bytes);
    }

    @Override
    public int readFile(long handle, NativeMemory buffer, int count) {
        MemorySegment into = Memory.of(buffer);
        if (count > into.byteSize()) {
            throw new IndexOutOfBoundsException("ReadFile of " + count + " bytes into a buffer of " + into.byteSize());
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment read = arena.allocate(JAVA_INT);
            int ok = (int) (long) captured.invokeExact(readFile, state(), handle, into.address(), (long) count, read.address(), 0L, 0L, 0L);
            return ok != 0 ? read.get(JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            throw failed("ReadFile", t);
        } finally {
            Reference.reachabilityFence(buffer);
        }
    }

    @Override
    public int writeFile(long handle, NativeMemory buffer, int offset, int count) {
        MemorySegment from = Memory.of(buffer).asSlice(offset, count); // throws past the buffer, before the call
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment written = arena.allocate(JAVA_INT);
            int ok = (int) (long) captured.invokeExact(writeFile, state(), handle, from.address(), (long) count, written.address(), 0L, 0L, 0L);
            return ok != 0 ? written.get(JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            throw failed("WriteFile", t);
        } finally {
            Reference.reachabilityFence(buffer);
        }
    }

    @Override
    public long openCurrentThread() {
        long id = getCurrentThreadId.call();
        return openThread.call(THREAD_TERMINATE, 0, (int) id);
    }

    @Override
    public boolean cancelSynchronousIo(long thread) {
        return (int) cancelSynchronousIo.call(thread) != 0;
    }

    @Override
    public long pinToCurrentProcessor() {
        long cpu = getCurrentProcessorNumber.call() & 63; // within the thread's group
        return setThreadAffinityMask.call(getCurrentThread.call(), 1L << cpu, 0);
    }

    @Override
    public void unpin(long previous) {
        if (previous != 0) {
            setThreadAffinityMask.call(getCurrentThread.call(), previous, 0);
        }
    }

    @Override
    public int handleFlags(long handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment flags = arena.allocate(JAVA_INT);
            return (int) getHandleInformation.call(handle, flags.address(), 0) != 0 ? flags.get(JAVA_INT, 0) : -1;
        }
    }

    @Override
    public boolean setProtectFromClose(long handle, boolean protect) {
        return (int) setHandleInformation.call(handle, HANDLE_FLAG_PROTECT_FROM_CLOSE, protect ? HANDLE_FLAG_PROTECT_FROM_CLOSE : 0) != 0;
    }

    @Override
    public long createJobObject() {
        return createJobObject.call(0, 0, 0);
    }

    @Override
    public boolean setJobLimits(long job) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment limits = arena.allocate(JOB_EXTENDED_LIMITS_BYTES, 8); // zeroed
            limits.set(JAVA_INT, JOB_LIMIT_FLAGS_OFFSET, CHILDREN_JOB_LIMITS);
            return (int) setInformationJobObject.call(job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, limits.address(), JOB_EXTENDED_LIMITS_BYTES, 0, 0, 0) != 0;
        }
    }

    @Override
    public boolean waitsForProcesses() {
        return true;
    }

    @Override
    public long openProcessToWait(long pid) {
        return openProcess.call(SYNCHRONIZE, 0, pid);
    }

    @Override
    public long createWakeEvent() {
        return createEvent.call(0, 1, 0, 0, 0, 0, 0);
    }

    @Override
    public boolean setEvent(long event) {
        return (int) setEventCall.call(event) != 0;
    }

    @Override
    public int waitForAny(long[] handles) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(JAVA_LONG, handles.length);
            MemorySegment.copy(handles, 0, array, JAVA_LONG, 0, handles.length);
            return (int) waitForMultipleObjects.call(handles.length, array.address(), 0, INFINITE, 0, 0, 0);
        }
    }

    @Override
    public boolean assignCurrentProcess(long job) {
        return (int) assignProcessToJobObject.call(job, getCurrentProcess.call(), 0) != 0;
    }
}
