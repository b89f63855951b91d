package io.mcpwire.platform.test.kit;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.WindowsVariant;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;

/**
 * The shared Windows rules over the fake's model of the C runtime and Win32 handles, against the
 * provider contract, on any OS: what the Windows providers do, checked without Windows.
 */
class FakeWindowsContractTest extends ProviderContract {
    final FakeProcess fake = FakeProcess.builder().windows(variant()).makesPipes().build();

    /** The Windows variant modelled: a console program by default. */
    WindowsVariant variant() {
        return WindowsVariant.DEFAULT;
    }

    @Override
    protected PlatformDescriptors provider() {
        return fake.windows();
    }

    @Override
    protected int[] pipe() throws DescriptorException {
        return fake.makePipe();
    }

    /** Handles are identities, standard handles taken as writable: held to sameFile, as the real Windows providers are. */
    @Override
    protected boolean identityTellsFileAndAccess() {
        return false;
    }

    /** The model's pipes wait on a condition, inside its file model. */
    @Override
    protected void awaitBlocked(Thread thread) {
        BlockedThreads.awaitWaitingIn(thread, "io.mcpwire.platform.test.FakeFile", Duration.ofSeconds(10));
    }

    /** The model's table is the test's own: its fd 0, 1 and 2 can be moved, and the duties after a move checked. */
    @Override
    protected Optional<StandardHandles> standardHandles() {
        return Optional.of(new FakeStandardHandles(fake));
    }

    @AfterEach
    void theModelsRulesHeld() {
        if (!fake.wireViolations().isEmpty()) {
            throw new AssertionError("the model's rules were broken: " + fake.wireViolations());
        }
    }
}
