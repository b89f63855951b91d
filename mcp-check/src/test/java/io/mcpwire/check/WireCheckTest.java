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

    private static Set<Finding.Kind> kinds(Report r) {
        return r.findings().stream().map(Finding::kind).collect(Collectors.toSet());
    }

    @Test
    void aCleanServerIsCleanAndExitsZero() throws Exception {
        Report r = check("clean");
        assertTrue(r.clean(), () -> r.text());
        assertEquals(0, r.exitStatus().orElse(-1));
        assertTrue(r.initializeMillis().isPresent() && r.pingP50Micros().isPresent());
    }

    @Test
    void theReportGivesTheTimeToTheFirstAnswerAndTheResidentMemoryAfterTheSession() throws Exception {
        Report r = check("clean");
        assertTrue(r.firstAnswerMillis().isPresent() && r.firstAnswerMillis().getAsDouble() > 0, r::text);
        // Counted from the server's start, which comes before the session's: never less than the time to initialize.
        assertTrue(r.firstAnswerMillis().getAsDouble() + 1 >= r.initializeMillis().getAsDouble(), r::text);
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
        Report r = WireCheck.run(new Options(server("silent"), false, "2025-06-18", Duration.ofSeconds(3), List.of()));
        assertEquals(Set.of(Finding.Kind.MISSING_ANSWER), kinds(r), () -> r.text());
        assertEquals(1, r.findings().size(), () -> "only initialize was asked: " + r.text());
        assertEquals(0, r.exitStatus().orElse(-1), () -> r.text());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aPhaseStopsAtItsFirstUnansweredRequest() throws Exception {
        Report r = WireCheck.run(new Options(server("loses-pings"), false, "2025-06-18", Duration.ofSeconds(2), List.of()));
        assertTrue(r.initializeMillis().isPresent() && r.pingP50Micros().isEmpty(), () -> r.text());
        long inSession = r.findings().stream().filter(f -> f.phase() == Phase.SESSION).count();
        assertEquals(1, inSession, () -> "one unanswered ping ends the pings: " + r.text());
        assertEquals(10, r.findings().size() - inSession, () -> "the batch at end of input is still owed: " + r.text());
    }

    @Test
    void aServerThatNeverExitsIsReportedAndKilled() throws Exception {
        Report r = WireCheck.run(new Options(server("hangs"), false, "2025-06-18", Duration.ofSeconds(1), List.of()));
        assertEquals(Set.of(Finding.Kind.NO_EXIT), kinds(r), () -> r.text());
        assertTrue(r.exitStatus().isEmpty());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS) // the check's own timeout is 60 s: waiting it out fails here
    void aServerThatExitsAtOnceIsReportedWithoutWaitingOutTheTimeout() throws Exception {
        Report r = WireCheck.run(new Options(server("exits"), false, "2025-06-18", Duration.ofSeconds(60), List.of()));
        assertEquals(Set.of(Finding.Kind.MISSING_ANSWER, Finding.Kind.EXIT_STATUS), kinds(r), () -> r.text());
        assertEquals(3, r.exitStatus().orElse(-1));
        assertTrue(r.initializeMillis().isEmpty(), () -> r.text());
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
    }

    private static String[] concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
    }
}
