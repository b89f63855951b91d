package io.mcpwire.platform.windows;

import com.sun.jna.Native;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.windows.Win32;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.platform.windows.jna.KernelBase;
import io.mcpwire.platform.windows.jna.Ucrt;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * The provider for Windows through JNA: the shared Windows rules ({@link WindowsPlatform}: the
 * Universal C Runtime's descriptors and the Win32 standard handles, both rebound) over
 * {@code ucrtbase}, {@code kernel32} and {@code kernelbase}.
 *
 * <p>Constructing it loads nothing; JNA and the libraries load on the first call that needs them.
 * 64-bit Windows only.
 */
public final class WindowsDescriptors extends WindowsPlatform {

    /** The bound libraries, and where the last Win32 error is read. */
    record Libraries(Ucrt ucrt, Kernel32 kernel32, KernelBase kernelBase, IntSupplier lastError) {
    }

    /** Creates the provider; cheap, loads nothing native. */
    public WindowsDescriptors() {
        super(NativeBinding.lazy("the C runtime and kernel32 through JNA", new Binder()), DescriptorTable.PROCESS);
    }

    /** Binds the libraries, on Windows: a class, not a lambda, since every JVM that finds this provider makes it. */
    private static final class Binder implements NativeBinding.Loader<Win32> {
        @Override
        public Win32 load() {
            return bind();
        }
    }

    /** A provider over the given bindings (tests give mocks), acting on a table of their own. */
    WindowsDescriptors(Libraries libraries) {
        super(NativeBinding.of("mock bindings", new JnaWin32(libraries)),
                DescriptorTable.create("the descriptor table of mock Windows bindings"));
    }

    private static Win32 bind() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("windows")) {
            throw new UnsupportedOperationException("not Windows (os.name=" + os + ")");
        }
        if (!com.sun.jna.Platform.is64Bit()) {
            throw new UnsupportedOperationException("32-bit Windows is not supported");
        }
        KernelBase kernelBase;
        try {
            kernelBase = Native.load("kernelbase", KernelBase.class);
        } catch (UnsatisfiedLinkError e) {
            kernelBase = null; // handles are then compared conservatively
        }
        return new JnaWin32(new Libraries(Native.load("ucrtbase", Ucrt.class), Native.load("kernel32", Kernel32.class),
                kernelBase, Native::getLastError));
    }

    @Override
    public String name() {
        return "windows";
    }

    @Override
    public int priority() {
        return 100;
    }
}
