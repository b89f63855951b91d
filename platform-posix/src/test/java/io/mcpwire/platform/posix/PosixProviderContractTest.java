package io.mcpwire.platform.posix;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.posix.jna.LibC;
import io.mcpwire.platform.rules.posix.PosixLib;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.kit.EnabledOnPosix;
import io.mcpwire.platform.test.kit.ProviderContract;
import java.time.Duration;

/** The JNA POSIX provider against the provider contract. */
@EnabledOnPosix
class PosixProviderContractTest extends ProviderContract {
    @Override
    protected PlatformDescriptors provider() {
        return new PosixDescriptors();
    }

    @Override
    protected int[] pipe() throws DescriptorException {
        PosixLib p = PosixDescriptors.binding();
        int[] ends = new int[2];
        p.check(p.libc().pipe(ends), "pipe", -1);
        return ends;
    }

    @Override
    protected void awaitBlocked(Thread thread) {
        BlockedThreads.awaitInCall(thread, LibC.class.getName(), "poll", Duration.ofSeconds(10));
    }
}
