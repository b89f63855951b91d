package io.mcpwire.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.mcpwire.platform.test.harness.ChildJvm;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Each fault fails the test that ran the server, with a message that quotes what was wrong. The
 * cases are nested classes run through JUnit's own test kit, so that their failures are observed
 * rather than suffered.
 */
class McpServerExtensionFailuresTest {

    static class BannerBeforeTheClaim {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(KitServers::bannerFirst);

        @Test
        void session(McpTestClient client) {
            client.initialize();
        }
    }

    @Test
    void aBannerBeforeTheClaimFailsTheTestWithItsPhaseAndCause() {
        String failure = onlyFailure(BannerBeforeTheClaim.class);
        assertTrue(failure.contains("STRAY_OUTPUT (BEFORE_INITIALIZE): \"=== kit server v1 ===\""), failure);
        assertTrue(failure.contains("likely cause"), failure);
    }

    static class NoClaimInProcess {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(() -> KitServers.main(new String[0]));

        @Test
        void session(McpTestClient client) {
            client.initialize();
            assertEquals("HI", client.callToolText("shout", "{\"text\":\"hi\"}"));
        }
    }

    @Test
    void aPrintOnAnUnclaimedWireFailsTheTestInProcess() {
        String failure = onlyFailure(NoClaimInProcess.class);
        assertTrue(failure.contains("STRAY_OUTPUT (SESSION): \"shouting\""), failure);
    }

    static class LeakedClaim {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(KitServers::leaksTheClaim)
                // The wait for the table to be restored ends only at the limit; the answer to
                // initialize must come within it too, and main return within the grace, on a loaded machine.
                .timeout(Duration.ofSeconds(2))
                .exitGrace(Duration.ofSeconds(1));

        @Test
        void session(McpTestClient client) {
            client.initialize();
        }
    }

    @Test
    void aClaimNeverReleasedFailsTheTestNamingTheDescriptors() {
        String failure = onlyFailure(LeakedClaim.class);
        assertTrue(failure.startsWith("the descriptor table was not restored when the server ended: fd 0: "), failure);
        assertTrue(failure.contains("fd 1: "), failure);
    }

    static class ThrowingMain {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.inProcess(() -> {
            throw new IllegalStateException("no configuration");
        });

        @Test
        void session(McpTestClient client) {
        }
    }

    @Test
    void aMainThatThrowsEndsWithStatusOneAndItsTraceOnStderr() {
        String failure = onlyFailure(ThrowingMain.class);
        assertTrue(failure.contains("EXIT_STATUS"), failure);
        assertTrue(failure.contains("IllegalStateException: no configuration"), failure);
    }

    static class NoClaimInAChild {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.command(List.of(ChildJvm.java(), "-cp",
                System.getProperty("java.class.path"), KitServers.class.getName()));

        @Test
        void session(McpTestClient client) {
            client.initialize();
            client.callToolText("shout", "{\"text\":\"hi\"}");
        }
    }

    @Test
    void aPrintOnAnUnclaimedWireFailsTheTestInAChildProcess() {
        String failure = onlyFailure(NoClaimInAChild.class);
        assertTrue(failure.contains("STRAY_OUTPUT (SESSION): \"shouting\""), failure);
    }

    static class SilentServer {
        @RegisterExtension
        final McpServerExtension server = McpServerExtension.command(List.of(ChildJvm.java(), "-cp",
                System.getProperty("java.class.path"), KitServers.class.getName()))
                .timeout(Duration.ofMillis(300));

        @Test
        void session(McpTestClient client) {
            client.request("drop", null);
        }
    }

    @Test
    void aRequestWithoutAnAnswerFailsTheTestThatSentIt() {
        String failure = onlyFailure(SilentServer.class);
        assertTrue(failure.startsWith("no answer to drop within PT0.3S"), failure);
    }

    private static String onlyFailure(Class<?> testClass) {
        Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute().testEvents();
        List<String> failures = tests.failed().stream().map(McpServerExtensionFailuresTest::message).collect(Collectors.toList());
        assertEquals(1, failures.size(), () -> "one failed test expected: " + failures + " of " + tests.list());
        return failures.get(0);
    }

    private static String message(Event e) {
        return e.getPayload(TestExecutionResult.class)
                .flatMap(TestExecutionResult::getThrowable)
                .map(t -> t.getMessage() == null ? t.toString() : t.getMessage()).orElse("");
    }
}
