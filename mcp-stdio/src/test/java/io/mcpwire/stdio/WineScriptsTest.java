package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.Call;
import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.WindowsScript;
import io.mcpwire.platform.test.WindowsVariant;
import io.mcpwire.stdio.FaultMatrixTest.Layout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Writes the claim scripts that {@code interop/wine/run} replays on Wine's real C runtime: for each
 * Windows layout, the model configured as Wine ({@link WindowsVariant#WINE}) is claimed and released,
 * and the C runtime and Win32 calls it received are kept with its state after the claim and after
 * the release; so are the runs with one failed call in which nothing names a wire while claimed but
 * whose end states differ from the fault-free run's (a stream served in place names it by design). Each script is replayed over a fresh model here, which must reach the same states: the
 * script holds everything the states depend on. Written to {@code target/wine-scripts}, each as
 * {@code NAME.script} (its second line {@code # launch LAYOUT}) and {@code NAME.expected}.
 */
class WineScriptsTest {
    /** The faulted runs kept per layout: enough to cover the different end states, few enough to replay quickly. */
    private static final int FAULTED_PER_LAYOUT = 3;
    private static final Path OUT = Path.of("target", "wine-scripts");

    /**
     * A layout of the model, and how the launcher starts the replayer to match it; {@code drained}:
     * the model makes pipes, so that the stray-output drain's pipe and descriptors are in the script.
     */
    private record Case(String name, Layout layout, WindowsVariant variant, String launch, boolean drained) {
        Case(String name, Layout layout, WindowsVariant variant, String launch) {
            this(name, layout, variant, launch, false);
        }

        FakeProcess build() {
            return layout.build(variant, drained);
        }
    }

    private static List<Case> cases() {
        WindowsVariant wine = WindowsVariant.WINE;
        return List.of(
                new Case("windows-pipes", Layout.WINDOWS_PIPES, wine, "apart"),
                new Case("windows-pipes-drained", Layout.WINDOWS_PIPES, wine, "apart", true),
                new Case("windows-stderr-is-wire-shared", Layout.WINDOWS_STDERR_IS_WIRE, wine.withSharedStdoutStderr(true), "same"),
                new Case("windows-stderr-is-wire", Layout.WINDOWS_STDERR_IS_WIRE, wine, "dup"),
                new Case("windows-stdin-missing", Layout.WINDOWS_STDIN_MISSING, wine, "nostdin"),
                new Case("windows-rolled-forward-fault-layout", Layout.WINDOWS_ROLLED_FORWARD, wine, "apart"));
    }

    /** One claim and release under {@code fault} (the k-th call failing, 0 for none). */
    private record Recorded(String script, List<String> states, List<Call> calls) {
        /** Whether, while claimed, nothing named a wire: a stream served in place does, by design. */
        boolean isolated() {
            return states.stream().filter(s -> s.startsWith("claimed: ")).noneMatch(s -> s.substring(9).contains("wire"));
        }
    }

    private static Recorded record(Case c, int fault) {
        FakeProcess fake = c.build();
        if (fault > 0) {
            fake.faults().onCall(fault);
        }
        FakeJvm jvm = FakeJvm.install(fake);
        try {
            WindowsScript script = WindowsScript.record(fake, c.name() + " (" + c.variant() + ")\n# launch " + c.launch());
            StdioClaim claim = StdioClaim.builder().platform(fake.windows()).acquire();
            script.phase("claimed");
            claim.close();
            if (!claim.isReleased()) {
                fake.faults().clear();
                claim.close(); // a failed restore, retried without faults
            }
            script.phase("released");
            return new Recorded(script.text(), script.states(), fake.calls());
        } finally {
            jvm.exit();
        }
    }

    @Test
    void everyLayoutsClaimAndReleaseAndTheFaultedRunsThatEndElsewhereAreWrittenAsScriptsThatReplayToTheSameStates()
            throws IOException {
        Files.createDirectories(OUT);
        try (var old = Files.list(OUT)) {
            for (Path p : old.toList()) {
                Files.delete(p); // scripts of an earlier build would be replayed too
            }
        }
        int written = 0;
        for (Case c : cases()) {
            Recorded clean = record(c, 0);
            written += write(c, c.name(), clean);
            Set<List<String>> seen = new HashSet<>(Set.of(clean.states()));
            int faulted = 0;
            // The drain's threads call the model at moments of their own: its calls are numbered
            // differently from run to run, so a fault by number would hit different calls.
            int faultable = c.drained() ? 0 : clean.calls().size();
            for (int k = 1; k <= faultable && faulted < FAULTED_PER_LAYOUT; k++) {
                Recorded run = record(c, k);
                if (run.isolated() && seen.add(run.states())) {
                    String op = clean.calls().get(k - 1).op().name().toLowerCase(Locale.ROOT).replace('_', '-');
                    written += write(c, c.name() + "-fault" + k + "-" + op, run);
                    faulted++;
                }
            }
        }
        assertTrue(written >= 12, "at least 12 scripts: " + written);
        for (String line : Files.readAllLines(OUT.resolve("windows-pipes.expected"))) {
            if (line.contains(" claimed: ")) {
                assertTrue(!line.contains("wire"), "claimed, nothing names a wire: " + line);
            } else {
                assertTrue(line.contains("fd0=stdin-wire fd1=stdout-wire"), "released, the wires are back: " + line);
            }
        }
    }

    /** Writes one script and its expected states, after checking that the script replays to them. */
    private static int write(Case c, String name, Recorded run) throws IOException {
        FakeProcess fresh = c.build();
        fresh.faults().clear(); // the layout's own faults are in the script, marked
        List<String> replayed = WindowsScript.replay(run.script(), fresh);
        assertEquals(run.states(), replayed, name + ": the script replayed over a fresh model reaches the model's states");
        Files.writeString(OUT.resolve(name + ".script"), run.script(), StandardCharsets.UTF_8);
        String expected = run.states().stream().map(s -> "model " + name + " " + s).collect(Collectors.joining("\n", "", "\n"));
        Files.writeString(OUT.resolve(name + ".expected"), expected, StandardCharsets.UTF_8);
        return 1;
    }
}
