package io.mcpwire.platform.ffm;

import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.posix.CLibrary;
import io.mcpwire.platform.rules.posix.PosixConstants;
import io.mcpwire.platform.rules.posix.PosixLib;
import io.mcpwire.platform.rules.posix.PosixPlatform;

/**
 * The FFM provider on Linux, macOS and FreeBSD: the POSIX rules over the C library through the
 * foreign function API ({@code ForeignCLibrary}). On any other system it says it cannot run.
 */
public final class FfmPosix extends PosixPlatform {
    private static final NativeBinding<PosixLib> FFM = NativeBinding.lazy(
            "the C library through the foreign function API", FfmPosix::bind);

    /** Creates the provider; cheap, loads nothing native. */
    public FfmPosix() {
        super(FFM);
    }

    private static PosixLib bind() throws Exception {
        Ffm.requireJdk();
        PosixConstants constants = PosixLib.constantsHere(); // not a POSIX system: say so before touching the linker
        return new PosixLib((CLibrary) Ffm.loadBinding("io.mcpwire.platform.ffm.ForeignCLibrary"), constants);
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
