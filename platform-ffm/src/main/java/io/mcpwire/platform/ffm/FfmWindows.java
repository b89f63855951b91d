package io.mcpwire.platform.ffm;

import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.windows.Win32;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import java.util.Locale;

/**
 * The FFM provider on Windows: the Windows rules over the C runtime and kernel32 through the
 * foreign function API ({@code ForeignWin32}). On any other system it says it cannot run.
 */
public final class FfmWindows extends WindowsPlatform {
    private static final NativeBinding<Win32> FFM = NativeBinding.lazy(
            "the C runtime and kernel32 through the foreign function API", FfmWindows::bind);

    /** Creates the provider; cheap, loads nothing native. */
    public FfmWindows() {
        super(FFM, DescriptorTable.PROCESS);
    }

    private static Win32 bind() throws Exception {
        Ffm.requireJdk();
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("windows")) {
            throw new UnsupportedOperationException("not Windows (os.name=" + os + ")");
        }
        if (!"64".equals(System.getProperty("sun.arch.data.model", "64"))) {
            throw new UnsupportedOperationException("32-bit Windows is not supported");
        }
        return (Win32) Ffm.loadBinding("io.mcpwire.platform.ffm.ForeignWin32");
    }

    @Override
    public String name() {
        return Ffm.NAME;
    }

    @Override
    public int priority() {
        return Ffm.PRIORITY;
    }
}
