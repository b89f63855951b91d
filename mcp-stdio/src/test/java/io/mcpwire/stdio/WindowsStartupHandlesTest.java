package io.mcpwire.stdio;

import static io.mcpwire.stdio.FakeWire.REQUEST;
import static io.mcpwire.stdio.FakeWire.readLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.FakeChild;
import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.WindowsVariant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On every shipped Windows, what a Java child started with {@code inheritIO()} gets, the handle
 * values the JVM captured at start-up, names the diversion while claimed and the wire again after;
 * and a claim taken while an application thread is blocked in {@code System.in.read()} neither
 * hangs nor lets that thread take the client's bytes.
 */
class WindowsStartupHandlesTest {

    static List<WindowsVariant> variants() {
        return WindowsVariant.shipped(false);
    }

    static List<WindowsVariant> mergedVariants() {
        return WindowsVariant.shipped(true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void anInheritIoChildReachesTheDiversionWhileClaimedAndTheClientAfter(WindowsVariant variant) throws Exception {
        FakeProcess fake = FakeProcess.builder().windows(variant).build();
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            try (StdioClaim claim = StdioClaim.builder().platform(fake.windows()).acquire()) {
                assertTrue(claim.isIsolated());
                FakeChild child = jvm.startInheritIoChild();
                assertEquals(List.of("null device (read)", "stderr", "stderr"), child.stdio(), "the JVM's start-up values follow fd 0 to 2");
                assertEquals(Set.of(), child.wiresReached());
                child.printStdout("from the child\n");
                assertEquals("", fake.client().drainText(), "the child's output does not reach the client");
                assertTrue(fake.stderrText().contains("from the child"), "it lands where stray output goes");
            }
            FakeChild after = jvm.startInheritIoChild();
            assertTrue(after.stdoutReachesClient(), "after the release the child writes to the client again: " + after);
            after.printStdout("after\n");
            assertEquals("after\n", fake.client().drainText());
        } finally {
            jvm.exit();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mergedVariants")
    void underStderrMergedIntoStdoutNoStartUpValueNamesTheWire(WindowsVariant variant) throws Exception {
        FakeProcess fake = FakeProcess.builder().stderr(StderrMode.SAME_AS_STDOUT).windows(variant).build();
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            try (StdioClaim claim = StdioClaim.builder().platform(fake.windows()).acquire()) {
                assertTrue(claim.stderrIsWire());
                assertEquals(Set.of(), fake.wiresNamedByJvmHandles(), fake.snapshot().toString());
                FakeChild child = jvm.startChild(new ProcessBuilder("child").inheritIO().redirectErrorStream(true));
                assertEquals(Set.of(), child.wiresReached(), "a child with redirectErrorStream(true) too");
            }
            assertTrue(jvm.startInheritIoChild().stdoutReachesClient());
        } finally {
            jvm.exit();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aClaimWithSystemInBlockedCompletesAndTheBlockedReaderGetsNoneOfTheClientsBytes(WindowsVariant variant) throws Exception {
        FakeProcess fake = FakeProcess.builder().windows(variant).build();
        FakeJvm jvm = FakeJvm.install(fake);
        InputStream systemIn = System.in;
        try {
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            ByteArrayOutputStream stolen = new ByteArrayOutputStream();
            Thread reader = new Thread(() -> {
                try {
                    for (int b; (b = systemIn.read()) >= 0; ) { // a retry finds the diversion: end of input
                        stolen.write(b);
                    }
                    outcome.complete("end of input");
                } catch (IOException e) {
                    outcome.complete(e);
                }
            }, "application thread reading System.in");
            reader.start();
            BlockedThreads.awaitWaitingIn(reader, "io.mcpwire.platform.test.FakeFile", FakeWire.TIMEOUT);

            try (StdioClaim claim = StdioClaim.builder().platform(fake.windows()).acquire()) {
                assertEquals(List.of(), fake.wireViolations(), "no query was made behind the pending read");
                assertTrue(claim.isIsolated());
                Object ended = outcome.get(FakeWire.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(ended instanceof IOException || ended.equals("end of input"), String.valueOf(ended));
                fake.client().send(REQUEST);
                assertEquals(REQUEST, readLine(claim.input()), "the request reaches the claim's reader, once");
            }
            assertEquals(0, stolen.size(), "the blocked thread took none of the client's bytes");
            assertEquals(List.of(), fake.wireViolations());
        } finally {
            jvm.exit();
        }
    }
}
