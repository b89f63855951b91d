package io.mcpwire.platform.ffm;

import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.posix.CLibrary;
import io.mcpwire.platform.rules.posix.PosixConstants;
import io.mcpwire.platform.rules.posix.PosixLib;
import io.mcpwire.platform.rules.posix.PosixPlatform;

/** The POSIX rules over the C library through the foreign function API ({@code ForeignCLibrary}). */
final class FfmPosix extends PosixPlatform {
    private static final NativeBinding<PosixLib> FFM = NativeBinding.lazy(
            "the C library through the foreign function API", FfmPosix::bind);

    FfmPosix() {
        super(FFM);
    }

    private static PosixLib bind() throws Exception {
        FfmDescriptors.requireJdk();
        PosixConstants constants = PosixLib.constantsHere(); // not a POSIX system: say so before touching the linker
        return new PosixLib((CLibrary) FfmDescriptors.loadBinding("io.mcpwire.platform.ffm.ForeignCLibrary"), constants);
    }

    @Override
    public String name() {
        return FfmDescriptors.NAME;
    }

    @Override
    public int priority() {
        return FfmDescriptors.PRIORITY;
    }
}
