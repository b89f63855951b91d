package io.mcpwire.platform.posix;

import io.mcpwire.platform.posix.jna.LibC;
import io.mcpwire.platform.test.kit.ClaimScenarios;
import java.util.List;

/** The JNA POSIX provider through the claim scenarios on real descriptors, in child JVMs. */
class PosixClaimScenariosTest extends ClaimScenarios {
    @Override
    protected String providerName() {
        return "posix";
    }

    @Override
    protected List<String> jvmOptions() {
        return List.of("--enable-native-access=com.sun.jna");
    }

    /** {@code LibC.poll} makes the call, through JNA's native dispatcher. */
    @Override
    protected String blockedFrame() {
        return LibC.class.getName() + "#poll";
    }
}
