package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mcpwire.platform.test.StderrMode;
import io.mcpwire.platform.test.WindowsVariant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The claim under random fault scripts on the fake: any layout of {@link FaultMatrixTest}, POSIX
 * or Windows, under any Windows variant that ships, with up to six platform calls failing (a
 * {@code dup2} destroying its target where the runtime closes first), through a full session and
 * the matrix's checks: no descriptor leaked (the table as before after the release, or after the
 * retried restore), no isolated wire within a child's reach while claimed (fd 0, 1, 2 or an
 * inherited duplicate), the states the table allows (an illegal move throws), a restore or a roll
 * forward as {@code docs/claim.md} says, and a following claim that works.
 */
class ClaimFaultScriptFuzzTest {
    /** More calls than any layout's session makes, so that some faults fall past its end. */
    private static final int CALLS = 160;

    @FuzzTest
    void anyFaultScriptLandsOnTheSafeSide(FuzzedDataProvider data) throws IOException {
        FaultMatrixTest.Layout layout = data.pickValue(FaultMatrixTest.Layout.values());
        WindowsVariant variant = layout.windows
                ? data.pickValue(WindowsVariant.shipped(layout.stderr == StderrMode.SAME_AS_STDOUT)) : null;
        boolean canDestroy = variant == null || variant.dup2Order() == WindowsVariant.Dup2Order.CLOSE_FIRST;
        List<FaultMatrixTest.Fault> faults = new ArrayList<>();
        for (int n = data.consumeInt(0, 6); n > 0; n--) {
            faults.add(new FaultMatrixTest.Fault(data.consumeInt(1, CALLS), canDestroy && data.consumeBoolean()));
        }
        FaultMatrixTest.Run run = FaultMatrixTest.session(faults, layout, variant);
        List<String> violations = run.violations();
        assertTrue(violations.isEmpty(), () -> layout + " " + variant + " faults " + faults + ":\n" + String.join("\n", violations));
    }
}
