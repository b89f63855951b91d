package io.mcpwire.platform.ffm;

import io.mcpwire.platform.test.kit.ClaimScenarios;
import java.util.List;

/** The FFM provider through the claim scenarios on real descriptors, in child JVMs. */
class FfmClaimScenariosTest extends ClaimScenarios {
    @Override
    protected String providerName() {
        return "ffm";
    }

    @Override
    protected List<String> jvmOptions() {
        return List.of("--enable-native-access=io.mcpwire.platform.ffm");
    }

    /** The downcall stub is hidden: the frame that makes the call is the binding's {@code poll}. */
    @Override
    protected String blockedFrame() {
        return "io.mcpwire.platform.ffm.ForeignCLibrary#poll";
    }
}
