package io.mcpwire.platform.ffm;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.kit.EnabledOnPosix;
import io.mcpwire.platform.test.kit.ProviderContract;
import java.time.Duration;

/** The FFM provider against the provider contract. */
@EnabledOnPosix
class FfmProviderContractTest extends ProviderContract {
    @Override
    protected PlatformDescriptors provider() {
        return new FfmPosix();
    }

    @Override
    protected int[] pipe() throws DescriptorException {
        ForeignCLibrary libc = ForeignCLibrary.load();
        int[] ends = new int[2];
        if (libc.pipe(ends) < 0) {
            throw new DescriptorException("pipe()", -1, libc.errno(), "errno " + libc.errno());
        }
        return ends;
    }

    /** The downcall stub is hidden: the frame that makes the call is the binding's {@code poll}. */
    @Override
    protected void awaitBlocked(Thread thread) {
        BlockedThreads.awaitInCall(thread, ForeignCLibrary.class.getName(), "poll", Duration.ofSeconds(10));
    }
}
