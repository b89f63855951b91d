package io.mcpwire.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.TimeUnit;
import io.mcpwire.protocol.ProtocolEra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The checker against small servers with one fault each, and a clean one. */
class WireCheckTest {

    private static List<String> server(String mode) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FaultyServer.class.getName(), mode);
    }

    private static Report check(String mode) throws Exception {
        return WireCheck.run(new Options(server(mode), false, "2025-06-18", Duration.ofSeconds(10), List.of()));
    }

    private static Report check(String mode, Options.EraChoice era) throws Exception {
        return WireCheck.run(new Options(server(mode), false, "2025-06-18", Duration.ofSeconds(10), List.of()).withEra(era));
    }

    private static Set<Finding.Kind> kinds(Report r) {
        return r.findings().stream().map(Finding::kind).collect(Collectors.toSet());
    }

    @Test
    void aCleanServerIsCleanAndExitsZero() throws Exception {
        Report r = check("clean");
        assertTrue(r.clean(), () -> r.text());
        assertEquals(0, r.exitStatus().orElse(-1));
        assertEquals(ProtocolEra.LEGACY, r.era().era(), r::text);
        assertTrue(r.era().why().contains("-32601") && r.era().probeMillis().isPresent(), r::text);
        assertEquals("ping", r.roundTripMethod());
        assertTrue(r.openMillis().isPresent() && r.roundTripP50Micros().isPresent());
    }

    @Test
    void theReportGivesTheTimeToTheFirstAnswerAndTheResidentMemoryAfterTheSession() throws Exception {
        Report r = check("clean");
        assertTrue(r.firstAnswerMillis().isPresent() && r.firstAnswerMillis().getAsDouble() > 0, r::text);
        // The first answer is the probe's, before initialize's; both are counted from about the
        // server's start (the wire's clock starts a moment before the session's).
        assertTrue(r.firstAnswerMillis().getAsDouble() <= r.openMillis().getAsDouble() + 50, r::text);
        assertTrue(r.era().probeMillis().isPresent() && r.firstAnswerMillis().getAsDouble() + 50 >= r.era().probeMillis().getAsDouble(), r::text);
        if (!System.getProperty("os.name", "").startsWith("Windows")) {
            // A JVM holds some tens of MiB resident; the OS tells it on Linux (/proc) and macOS (ps).
            assertTrue(r.residentBytes().isPresent() && r.residentBytes().getAsLong() > 8L * 1024 * 1024, r::text);
        }
        assertTrue(r.text().contains("resident memory after the session: ") && r.json().contains("\"residentBytes\":"), r::text);
    }

    @Test
    void aBannerBeforeInitializeIsQuotedWithItsCause() throws Exception {
        Report r = check("banner");
        assertEquals(Set.of(Finding.Kind.STRAY_OUTPUT), kinds(r), () -> r.text());
        assertEquals(2, r.findings().size());
        Finding first = r.findings().get(0);
        assertEquals(Phase.BEFORE_INITIALIZE, first.phase());
        assertTrue(first.detail().contains(".   ____"), first.detail());
        assertTrue(first.advice().contains("banner"), first.advice());
    }

    @Test
    void bytesGluedInFrontOfAnswersAreFoundWithoutLosingTheAnswers() throws Exception {
        Report r = check("glued");
        assertEquals(Set.of(Finding.Kind.GLUED_OUTPUT), kinds(r), () -> r.text());
        assertTrue(r.findings().get(0).detail().contains("\"progress: 50%\""), r.findings().get(0).detail());
    }

    @Test
    void answersDroppedAtEndOfInputAreCountedWithTheirPhase() throws Exception {
        Report r = check("drops");
        assertEquals(Set.of(Finding.Kind.MISSING_ANSWER), kinds(r), () -> r.text());
        assertTrue(r.findings().stream().allMatch(f -> f.phase() == Phase.AFTER_END_OF_INPUT), () -> r.text());
        assertTrue(r.findings().size() >= 1 && r.findings().size() <= 10, () -> r.text());
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.SECONDS) // one wait per request would be some 35 of them
    void aServerThatAnswersNothingIsCheckedInAboutOneTimeout() throws Exception {
        // A silent server's start-up does not matter: the probe and initialize each wait out the 1 s.
        Report r = WireCheck.run(new Options(server("silent"), false, "2025-06-18", Duration.ofSeconds(1), List.of()));
        assertTrue(r.text().contains("PROBE_UNANSWERED"), r::text);
        assertEquals(Set.of(Finding.Kind.PROBE_UNANSWERED, Finding.Kind.MISSING_ANSWER), kinds(r), () -> r.text());
        assertEquals(2, r.findings().size(), () -> "only the probe and initialize were asked: " + r.text());
        assertEquals(0, r.exitStatus().orElse(-1), () -> r.text());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aPhaseStopsAtItsFirstUnansweredRequest() throws Exception {
        Report r = WireCheck.run(new Options(server("loses-pings"), false, "2025-06-18", Duration.ofSeconds(2), List.of()));
        assertTrue(r.openMillis().isPresent() && r.roundTripP50Micros().isEmpty(), () -> r.text());
        long inSession = r.findings().stream().filter(f -> f.phase() == Phase.SESSION).count();
        assertEquals(1, inSession, () -> "one unanswered ping ends the pings: " + r.text());
        assertEquals(10, r.findings().size() - inSession, () -> "the batch at end of input is still owed: " + r.text());
    }

    @Test
    void theProbeAndInitializeShareOneTimeout() {
        assertEquals(Duration.ofSeconds(7), Opening.initializeWait(Duration.ofSeconds(10), true), "10 s less the probe's 3 s");
        assertEquals(Duration.ofSeconds(10), Opening.initializeWait(Duration.ofSeconds(10), false), "the probe was answered");
        assertEquals(Duration.ofSeconds(3), Opening.initializeWait(Duration.ofSeconds(4), true), "no less than the probe had");
        assertEquals(Duration.ofSeconds(2), Opening.initializeWait(Duration.ofSeconds(2), true), "the probe had 2 s too");
    }

    @Test
    void aServerThatNeverExitsIsReportedAndKilled() throws Exception {
        Report r = WireCheck.run(new Options(server("hangs"), false, "2025-06-18", Duration.ofSeconds(1), List.of())
                .withExitGrace(Duration.ofMillis(500)));
        assertEquals(Set.of(Finding.Kind.NO_EXIT), kinds(r), () -> r.text());
        assertTrue(r.text().contains("did not end within 1.5 s of end of input"), () -> r.text()); // the timeout and the grace told
        assertTrue(r.exitStatus().isEmpty());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS) // the check's own timeout is 60 s: waiting it out fails here
    void aServerThatExitsAtOnceIsReportedWithoutWaitingOutTheTimeout() throws Exception {
        Report r = WireCheck.run(new Options(server("exits"), false, "2025-06-18", Duration.ofSeconds(60), List.of()));
        assertEquals(Set.of(Finding.Kind.PROBE_FATAL, Finding.Kind.MISSING_ANSWER, Finding.Kind.EXIT_STATUS), kinds(r), () -> r.text());
        assertEquals(3, r.exitStatus().orElse(-1));
        assertTrue(r.openMillis().isEmpty(), () -> r.text());
    }

    @Test
    void aModernOnlyServerIsCheckedInTheModernEraWithoutPing() throws Exception {
        Report r = check("modern");
        assertTrue(r.clean(), r::text);
        assertEquals(ProtocolEra.MODERN, r.era().era());
        assertEquals("2026-07-28", r.era().protocolVersion().orElseThrow());
        assertEquals("server/discover", r.roundTripMethod());
        assertTrue(r.roundTripP50Micros().isPresent() && r.openMillis().isPresent(), r::text);
        assertTrue(r.json().contains("\"era\":\"modern\",\"protocolVersion\":\"2026-07-28\""), r::json);
    }

    @Test
    void aModernOnlyServerCheckedInTheLegacyEraOpensNoSessionAndIsNotClean() throws Exception {
        Report r = check("modern", Options.EraChoice.LEGACY);
        assertEquals(Set.of(Finding.Kind.NO_SESSION), kinds(r), r::text);
        assertTrue(r.openMillis().isEmpty() && r.roundTripP50Micros().isEmpty(), r::text);
        assertTrue(r.text().contains("initialize was refused with -32601"), r::text);
    }

    @Test
    void aLegacyServerCheckedInTheModernEraOpensNoSession() throws Exception {
        Report r = check("clean", Options.EraChoice.MODERN);
        assertEquals(Set.of(Finding.Kind.NO_SESSION), kinds(r), r::text);
        assertTrue(r.findings().get(0).detail().contains("does not speak the modern era"), r::text);
    }

    @Test
    void aModernServerThatWritesARequestBreaksTheEra() throws Exception {
        Report r = check("asks");
        assertEquals(Set.of(Finding.Kind.SERVER_REQUEST), kinds(r), r::text);
        assertTrue(r.findings().get(0).detail().contains("sampling/createMessage"), r::text);
        assertTrue(r.json().contains("SERVER_REQUEST"), r::json);
    }

    @Test
    void aLegacyServerMayWriteRequests() throws Exception {
        Report r = check("asks-legacy");
        assertTrue(r.clean(), r::text);
    }

    @Test
    void aModernServerThatLogsUnaskedBreaksTheEra() throws Exception {
        Report r = check("logs");
        assertEquals(Set.of(Finding.Kind.UNASKED_LOG_MESSAGE), kinds(r), r::text);
    }

    @Test
    @org.junit.jupiter.api.condition.EnabledOnOs(value = {org.junit.jupiter.api.condition.OS.LINUX, org.junit.jupiter.api.condition.OS.MAC},
            disabledReason = "the process left running is sleep")
    void aProcessTheServerLeftRunningIsFound() throws Exception {
        Report r = check("leaves");
        try {
            assertEquals(Set.of(Finding.Kind.LEFT_RUNNING), kinds(r), r::text);
            assertTrue(r.findings().get(0).detail().contains("sleep 600"), r::text);
        } finally {
            LeftRunning.kill(r);
        }
    }

    @Test
    void aModernResultWithoutResultTypeOrCacheHintsIsMalformed() throws Exception {
        Report r = check("no-result-type");
        assertEquals(Set.of(Finding.Kind.MALFORMED_RESULT), kinds(r), r::text);
        assertEquals(2, r.findings().size(), r::text);
    }

    @Test
    void aServerThatSpeaksOnlyAnUnknownVersionOpensNoSession() throws Exception {
        Report r = check("future");
        assertEquals(Set.of(Finding.Kind.NO_SESSION), kinds(r), r::text);
        assertTrue(r.findings().get(0).detail().contains("2099-01-01"), r::text);
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aLegacyServerThatIgnoresTheProbeCostsHostsTheirProbeWait() throws Exception {
        Report r = check("ignores-probe");
        assertEquals(List.of(Finding.Kind.PROBE_UNANSWERED), r.findings().stream().map(Finding::kind).collect(Collectors.toList()), r::text);
        assertEquals(ProtocolEra.LEGACY, r.era().era());
        assertTrue(r.openMillis().getAsDouble() >= EraProbe.HOST_PROBE_WAIT.toMillis(), r::text);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aModernServerTooSlowForTheProbeIsFoundModernByItsRefusalOfInitialize() throws Exception {
        Report r = check("slow-modern");
        assertEquals(ProtocolEra.MODERN, r.era().era(), r::text);
        assertEquals(List.of(Finding.Kind.PROBE_UNANSWERED), r.findings().stream().map(Finding::kind).collect(Collectors.toList()), r::text);
        assertTrue(r.findings().get(0).detail().contains("answered, but only after"), r::text);
        assertTrue(r.roundTripP50Micros().isPresent(), r::text);
    }

    @Test
    void aServerThatTheProbeEndsOrSilencesIsProbeFatal() throws Exception {
        for (String mode : List.of("dies-on-probe", "mute-after-probe")) {
            Report r = WireCheck.run(new Options(server(mode), false, "2025-06-18", Duration.ofSeconds(2), List.of()));
            assertTrue(kinds(r).contains(Finding.Kind.PROBE_FATAL), () -> mode + ": " + r.text());
            assertTrue(r.openMillis().isEmpty(), () -> mode + ": " + r.text());
        }
    }

    @Test
    void theCommandLineExitsZeroOneOrTwoAndWritesJson() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        List<String> clean = server("clean");
        assertEquals(0, Check.run(concat(List.of("--json", "--"), clean), o, e));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("{\"clean\":true,"), out::toString);
        assertEquals(1, Check.run(concat(List.of("--"), server("banner")), o, e));
        assertEquals(2, Check.run(new String[] {"--", "/no/such/server"}, o, e));
        assertEquals(2, Check.run(new String[] {"--json"}, o, e));
        assertEquals(2, Check.run(new String[] {"--era", "newest", "--", "x"}, o, e));
        out.reset();
        assertEquals(0, Check.run(concat(List.of("--json", "--era", "legacy", "--"), clean), o, e));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"era\":\"legacy\",\"protocolVersion\":\"2025-06-18\""), out::toString);
    }

    private static String[] concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
    }
}
