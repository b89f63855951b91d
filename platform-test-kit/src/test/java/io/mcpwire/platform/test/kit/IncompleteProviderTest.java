package io.mcpwire.platform.test.kit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.platform.test.WindowsVariant;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A provider that skips one of the duties after a move, or offers none where they are owed, fails
 * the provider kit, with a message that names what it skipped: the fake's Windows rules, with one
 * duty turned into a no-op or the duties withheld.
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
                        if (method.getName().equals("standardHandleDuties")) {
                            return skipped.equals("standardHandleDuties") ? Optional.empty()
                                    : real.standardHandleDuties().map(this::skipping);
                        }
                        return forward(real, method, args);
                    });
        }

        /** {@code duties} with the skipped one a no-op. */
        private StandardHandleDuties skipping(StandardHandleDuties duties) {
            return (StandardHandleDuties) Proxy.newProxyInstance(StandardHandleDuties.class.getClassLoader(),
                    new Class<?>[] {StandardHandleDuties.class},
                    (proxy, method, args) -> method.getName().equals(skipped) ? null : forward(duties, method, args));
        }

        private static Object forward(Object target, Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "rebindStandardHandle, dutyTheSlotFollowsAMove, skipped the duty rebindStandardHandle",
        "followStartupHandle, dutyTheJvmsStartupHandleFollowsAMove, skipped the duty followStartupHandle",
        "cancelStrandedReads, dutyAReadStrandedOnTheWireIsCancelled, skipped the duty cancelStrandedReads",
        "standardHandleDuties, standardHandleDutiesAreOfferedExactlyWhereTheJvmStreamsDoNotFollow, yet it offers no standard-handle duties"})
    void aProviderThatSkipsADutyFailsTheKitNamingIt(String duty, String check, String named) throws Exception {
        SkipsADuty kit = new SkipsADuty(duty);
        kit.openPipe();
        try {
            AssertionError failed = assertThrows(AssertionError.class, () -> run(kit, check));
            assertTrue(failed.getMessage().contains(named), failed.getMessage());
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
            kit.standardHandleDutiesAreOfferedExactlyWhereTheJvmStreamsDoNotFollow();
        } finally {
            kit.closePipe();
        }
    }

    private static void run(ProviderContract kit, String check) throws Throwable {
        switch (check) {
            case "dutyTheSlotFollowsAMove" -> kit.dutyTheSlotFollowsAMove();
            case "dutyTheJvmsStartupHandleFollowsAMove" -> kit.dutyTheJvmsStartupHandleFollowsAMove();
            case "dutyAReadStrandedOnTheWireIsCancelled" -> kit.dutyAReadStrandedOnTheWireIsCancelled();
            case "standardHandleDutiesAreOfferedExactlyWhereTheJvmStreamsDoNotFollow" ->
                    kit.standardHandleDutiesAreOfferedExactlyWhereTheJvmStreamsDoNotFollow();
            default -> throw new IllegalArgumentException(check);
        }
    }
}
