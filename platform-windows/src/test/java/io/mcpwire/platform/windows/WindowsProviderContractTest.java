package io.mcpwire.platform.windows;

import com.sun.jna.Native;
import com.sun.jna.ptr.LongByReference;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.kit.EnabledOnWindows;
import io.mcpwire.platform.test.kit.ProviderContract;
import io.mcpwire.platform.windows.jna.Pipes;
import io.mcpwire.platform.windows.jna.Ucrt;
import java.time.Duration;

/**
 * The JNA Windows provider against the provider contract, on a real Windows (the GitHub Actions
 * matrix): pipes from {@code CreatePipe}, wrapped in C runtime descriptors.
 */
@EnabledOnWindows
class WindowsProviderContractTest extends ProviderContract {

    @Override
    protected PlatformDescriptors provider() {
        return new WindowsDescriptors();
    }

    @Override
    protected int[] pipe() throws DescriptorException {
        return pipeOnWindows();
    }

    /** A pipe of C runtime descriptors, not inherited: {read end, write end}. */
    private static int[] pipeOnWindows() throws DescriptorException {
        LongByReference read = new LongByReference();
        LongByReference write = new LongByReference();
        if (!Native.load("kernel32", Pipes.class).CreatePipe(read, write, null, 0)) {
            throw new DescriptorException("CreatePipe", -1, Native.getLastError(), "CreatePipe failed");
        }
        Ucrt ucrt = Native.load("ucrtbase", Ucrt.class);
        return new int[] {
            ucrt._open_osfhandle(read.getValue(), WindowsDescriptors.O_BINARY | WindowsDescriptors.O_RDONLY),
            ucrt._open_osfhandle(write.getValue(), WindowsDescriptors.O_BINARY)};
    }

    /** Interface-mapped through JNA: a blocked ReadFile or WriteFile shows JNA's native dispatch on top. */
    @Override
    protected void awaitBlocked(Thread thread) {
        BlockedThreads.awaitInNativeCall(thread, "invokeInt", Duration.ofSeconds(10));
    }

    /** Windows identities are handles, and standard handles are taken as writable. */
    @Override
    protected boolean identityTellsFileAndAccess() {
        return false;
    }
}
