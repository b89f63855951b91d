package io.mcpwire.platform.posix;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.support.posix.PosixLib;
import io.mcpwire.platform.test.BlockedThreads;
import io.mcpwire.platform.test.kit.ProviderContract;
import java.time.Duration;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The JNA POSIX provider against the provider contract. */
@EnabledOnOs(value = {OS.LINUX, OS.MAC, OS.FREEBSD}, disabledReason = "the POSIX provider runs on POSIX systems only")
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
        BlockedThreads.awaitInNativeCall(thread, "poll", Duration.ofSeconds(10));
    }
}
