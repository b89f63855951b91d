package io.mcpwire.platform.test.kit;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.FakeProcess;
import java.time.Duration;

/** The fake descriptor table against the provider contract: the fake behaves as a provider must. */
class FakeProviderContractTest extends ProviderContract {
    private final FakeProcess fake = FakeProcess.builder().makesPipes().build();

    @Override
    protected PlatformDescriptors provider() {
        return fake;
    }

    @Override
    protected int[] pipe() throws DescriptorException {
        return fake.makePipe();
    }

    /** The fake's pipes wait on a condition, inside its file model. */
    @Override
    protected void awaitBlocked(Thread thread) {
        BlockedThreads.awaitWaitingIn(thread, "io.mcpwire.platform.test.FakeFile", Duration.ofSeconds(10));
    }
}
