package io.mcpwire.platform.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.kit.EnabledOnWindows;
import io.mcpwire.platform.test.kit.ProviderContract;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.Set;

/**
 * The FFM provider on Windows against the provider contract, on a real Windows (the GitHub Actions
 * matrix, JDK 25): pipes from {@code CreatePipe}, wrapped in C runtime descriptors.
 */
@EnabledOnWindows
class FfmWindowsContractTest extends ProviderContract {
    private static final int O_BINARY = 0x8000;

    @Override
    protected PlatformDescriptors provider() {
        return new FfmWindows();
    }

    @Override
    protected int[] pipe() throws DescriptorException {
        Linker linker = Linker.nativeLinker();
        MethodHandle createPipe = linker.downcallHandle(
                SymbolLookup.libraryLookup("kernel32", Arena.global()).find("CreatePipe").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        MethodHandle openOsfHandle = linker.downcallHandle(
                SymbolLookup.libraryLookup("ucrtbase", Arena.global()).find("_open_osfhandle").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment read = arena.allocate(JAVA_LONG);
            MemorySegment write = arena.allocate(JAVA_LONG);
            if ((int) createPipe.invokeExact(read, write, MemorySegment.NULL, 0) == 0) {
                throw new DescriptorException("CreatePipe", -1, 0, "CreatePipe failed");
            }
            return new int[] {
                (int) openOsfHandle.invokeExact(read.get(JAVA_LONG, 0), O_BINARY),
                (int) openOsfHandle.invokeExact(write.get(JAVA_LONG, 0), O_BINARY)};
        } catch (DescriptorException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The downcall stub is hidden: the frame that makes the call is the binding's readFile or writeFile. */
    @Override
    protected void awaitBlocked(Thread thread) {
        BlockedThreads.awaitInCall(thread, ForeignWin32.class.getName(), Set.of("readFile", "writeFile"), Duration.ofSeconds(10));
    }

    /** Windows identities are handles, and standard handles are taken as writable. */
    @Override
    protected boolean identityTellsFileAndAccess() {
        return false;
    }
}
