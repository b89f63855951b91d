package io.mcpwire.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.RequestMeta;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The command line's era options, and how each era's params are written. */
class OptionsTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void helpPrintsTheUsageAndEveryOptionToStdoutAndExitsZero() throws Exception {
        for (String flag : new String[] {"--help", "-h"}) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            int status = Check.run(new String[] {flag}, new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
            assertEquals(0, status, flag);
            String help = out.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(help.startsWith("usage: java -jar mcpwire-check.jar"), help);
            for (String option : new String[] {"--json", "--era", "--protocol", "--timeout", "--exit-grace", "--call", "--help"}) {
                assertTrue(help.contains("  " + option) || help.contains(", " + option), option + " is described");
            }
            assertEquals("", err.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
        // After --, -h belongs to the server's command line.
        assertEquals(java.util.List.of("srv", "-h"), Options.parse(new String[] {"--", "srv", "-h"}).command());
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        assertEquals(2, Check.run(new String[] {"--bogus"}, new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
                new java.io.PrintStream(err, true)), "an unknown option is still refused");
    }

    @Test
    void theEraIsAutoUnlessChosenAndAVersionGoesToItsOwnEra() {
        Options o = Options.parse(new String[] {"--", "srv"});
        assertEquals(Options.EraChoice.AUTO, o.era());
        assertEquals("2026-07-28", o.modernVersion());
        assertEquals("2025-06-18", o.protocolVersion());
        Options chosen = Options.parse(new String[] {"--era", "Legacy", "--protocol", "2025-11-25", "--protocol", "2027-01-01", "--", "srv"});
        assertEquals(Options.EraChoice.LEGACY, chosen.era());
        assertEquals("2025-11-25", chosen.protocolVersion());
        assertEquals("2027-01-01", chosen.modernVersion());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--era", "new", "--", "srv"}));
        assertTrue(e.getMessage().contains("auto, modern or legacy"), e.getMessage());
    }

    @Test
    void theTimeoutAndTheExitGraceAreSecondsAndAreChecked() {
        Options usual = Options.parse(new String[] {"--", "srv"});
        assertEquals(java.time.Duration.ofSeconds(10), usual.timeout());
        assertEquals(WireCheck.EXIT_GRACE, usual.exitGrace());
        Options told = Options.parse(new String[] {"--timeout", "2.5", "--exit-grace", "0", "--", "srv"});
        assertEquals(java.time.Duration.ofMillis(2500), told.timeout());
        assertEquals(java.time.Duration.ZERO, told.exitGrace());
        for (String[] wrong : new String[][] {{"--exit-grace", "-1"}, {"--timeout", "0"}, {"--exit-grace", "soon"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Options.parse(new String[] {wrong[0], wrong[1], "--", "srv"}));
            assertTrue(e.getMessage().contains(wrong[1]), e.getMessage());
        }
    }

    @Test
    void modernParamsCarryAWellFormedMetaBesideTheirOwnMembers() {
        Dialect modern = Dialect.modern("2026-07-28", "c");
        String params = modern.params(WireCheck.toolCallParams("echo", "{\"text\":\"x\"}"));
        RequestMeta.Claim claim = RequestMeta.read(JSON.readTree(params));
        RequestMeta meta = ((RequestMeta.Claim.Present) claim).meta();
        assertEquals("2026-07-28", meta.protocolVersion());
        assertEquals("c", meta.clientInfo().orElseThrow().name());
        assertEquals("echo", JSON.readTree(params).path("name").asString());
        assertTrue(JSON.readTree(modern.params(null)).path(MetaKeys.META).has(MetaKeys.CLIENT_CAPABILITIES));
        assertEquals("{}", Dialect.legacy("2025-06-18", "c").params("{}"), "legacy params are sent as they are");
    }
}
