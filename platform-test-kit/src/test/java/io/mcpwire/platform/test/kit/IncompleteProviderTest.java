package io.mcpwire.platform.test.kit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.WindowsVariant;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A provider that skips one of the duties after a move fails the provider kit, with a message that
 * names the duty: the fake's Windows rules, with one duty turned into a no-op.
 */
class IncompleteProviderTest {

    /** The kit over the fake's Windows provider, with the named duty skipped. */
    private static final class SkipsADuty extends FakeWindowsContractTest {
        private final String skipped;

        SkipsADuty(String skipped) {
            this.skipped = skipped;
        }

        /** A GUI program: its C runtime leaves the slots alone, so a skipped rebind shows. */
        @Override
        WindowsVariant variant() {
            return new WindowsVariant(WindowsVariant.DEFAULT.dup2Order(), WindowsVariant.AppType.GUI, false,
                    WindowsVariant.DEFAULT.handleReuse());
        }

        @Override
        protected PlatformDescriptors provider() {
            PlatformDescriptors real = fake.windows();
            return (PlatformDescriptors) Proxy.newProxyInstance(PlatformDescriptors.class.getClassLoader(),
                    new Class<?>[] {PlatformDescriptors.class}, (proxy, method, args) -> {
                        if (method.getName().equals(skipped)) {
                            return null;
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "rebindStandardHandle, dutyTheSlotFollowsAMove",
        "followStartupHandle, dutyTheJvmsStartupHandleFollowsAMove",
        "cancelStrandedReads, dutyAReadStrandedOnTheWireIsCancelled"})
    void aProviderThatSkipsADutyFailsTheKitNamingIt(String duty, String check) throws Exception {
        SkipsADuty kit = new SkipsADuty(duty);
        kit.openPipe();
        try {
            AssertionError failed = assertThrows(AssertionError.class, () -> run(kit, check));
            assertTrue(failed.getMessage().contains("skipped the duty " + duty), failed.getMessage());
        } finally {
            kit.closePipe();
        }
    }

    @Test
    void theCompleteProviderPassesEveryDuty() throws Exception {
        SkipsADuty kit = new SkipsADuty("none");
        kit.openPipe();
        try {
            kit.dutyTheSlotFollowsAMove();
            kit.dutyTheJvmsStartupHandleFollowsAMove();
            kit.dutyAReadStrandedOnTheWireIsCancelled();
        } finally {
            kit.closePipe();
        }
    }

    private static void run(ProviderContract kit, String check) throws Throwable {
        switch (check) {
            case "dutyTheSlotFollowsAMove" -> kit.dutyTheSlotFollowsAMove();
            case "dutyTheJvmsStartupHandleFollowsAMove" -> kit.dutyTheJvmsStartupHandleFollowsAMove();
            case "dutyAReadStrandedOnTheWireIsCancelled" -> kit.dutyAReadStrandedOnTheWireIsCancelled();
            default -> throw new IllegalArgumentException(check);
        }
    }
}
