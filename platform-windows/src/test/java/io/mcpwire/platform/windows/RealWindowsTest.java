package io.mcpwire.platform.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import io.mcpwire.platform.test.harness.ChildJvm;
import io.mcpwire.platform.test.kit.EnabledOnWindows;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim on real Windows descriptors and handles: a child JVM, started with a plain
 * {@code java -p ... -m ...} over pipes, claims its own stdio; the test judges from outside. The
 * cases the model covers with threads beside the claim (a writer blocked on an unread stderr pipe,
 * racing {@code inheritIO()} children, a server under {@code cmd /c} whose host dies) each print
 * one line starting {@code real windows:}, for the CI matrix's log.
 */
@EnabledOnWindows
class RealWindowsTest {
    private static final String REQUESTS = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}\n").collect(Collectors.joining());
    private static final String RESPONSES = IntStream.rangeClosed(1, 3)
            .mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":{}}\n").collect(Collectors.joining());

    @TempDir
    Path dir;

    private List<String> command(Path report, String... mode) {
        return command(List.of(), WindowsChildSession.class.getName(), report, mode);
    }

    private List<String> command(List<String> options, String main, Path report, String... mode) {
        List<String> cmd = new java.util.ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=com.sun.jna"));
        cmd.addAll(options);
        cmd.addAll(List.of("-p", ChildJvm.path(),
                "--patch-module", "io.mcpwire.platform.windows=" + Path.of("target", "test-classes").toAbsolutePath(),
                "--add-modules", "io.mcpwire.stdio",
                "--add-reads", "io.mcpwire.platform.windows=io.mcpwire.stdio",
                "--add-opens", "java.base/java.io=io.mcpwire.platform.windows", // FileDescriptor's handle, to compare
                "--add-modules", "io.mcpwire.transport",
                "--add-reads", "io.mcpwire.platform.windows=io.mcpwire.transport",
                "--add-modules", "java.management", // WindowsRaces tells a blocked writer by its CPU time
                "--add-reads", "io.mcpwire.platform.windows=java.management",
                "-m", "io.mcpwire.platform.windows/" + main, report.toString()));
        cmd.addAll(List.of(mode));
        return cmd;
    }

    @Test
    void onPipesOnlyJsonRpcReachesTheClientAndBothLayersAreRestored() throws Exception {
        Path report = dir.resolve("report");
        ChildJvm.Result p = ChildJvm.run(command(report), REQUESTS, false, Duration.ofSeconds(120));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\n" + p.describe();

        assertEquals(0, p.exitCode(), all);
        assertTrue(p.stdout().startsWith(RESPONSES), "LF-only JSON-RPC and nothing else during the session\n" + all);
        assertEquals("after the session", p.stdout().substring(RESPONSES.length()).strip(),
                "System.out after the release writes the restored fd 1, not a closed handle\n" + all);
        assertTrue(p.stderr().contains("stray println") && p.stderr().contains("unflushed-write"), all);
        assertTrue(!p.stdout().contains("inherited child stdout") && p.stderr().contains("inherited child stdout"),
                "an inheritIO() child started while claimed writes to the diversion, stderr\n" + all);
        assertTrue(r.stream().anyMatch(l -> l.startsWith("CLOSED FD ERROR") && l.contains("EBADF")),
                "a call on a closed descriptor is an error, and the JVM lives on\n" + all);
        for (String line : List.of("SLOTS BEFORE MATCH", "STARTUP BEFORE MATCH", "CLAIM windows isolated=true stderrIsWire=false",
                "SLOTS DURING MATCH", "STARTUP DURING MATCH", "INHERIT CHILD EXIT 0", "CHILD EXIT 0", "SYSTEM.IN -1", "SERVED 3",
                "RELEASED true", "SLOTS AFTER MATCH", "STARTUP AFTER MATCH", "TABLE UNCHANGED", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
    }

    @Test
    void underStderrMergedIntoStdoutAnInheritIoChildsOutputDoesNotReachTheClient() throws Exception {
        Path report = dir.resolve("report");
        // One handle value for stdout and stderr, as the JDK passes them with redirectErrorStream(true).
        ChildJvm.Result p = ChildJvm.runWithStderrMerged(command(report), REQUESTS, Duration.ofSeconds(120));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\n" + p.describe();

        assertEquals(0, p.exitCode(), all);
        assertTrue(p.stdout().contains(RESPONSES), all);
        String session = p.stdout().substring(0, p.stdout().indexOf(RESPONSES) + RESPONSES.length());
        assertTrue(!session.contains("inherited child stdout") && !session.contains("stray println"),
                "neither the inheritIO() child nor a stray print reaches the client during the session\n" + all);
        for (String line : List.of("CLAIM windows isolated=true stderrIsWire=true", "STARTUP DURING MATCH", "INHERIT CHILD EXIT 0",
                "RELEASED true", "STARTUP AFTER MATCH", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
    }

    @Test
    void aNativeChildStartedDuringARolledForwardClaimWritesToTheDiversionNotToAClosedHandle() throws Exception {
        Path report = dir.resolve("report");
        ChildJvm.Result p = ChildJvm.run(command(report, "rollforward"), "", false, Duration.ofSeconds(120));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String all = "report " + r + "\n" + p.describe();

        assertEquals(0, p.exitCode(), all);
        for (String line : List.of("STATE ROLLED_FORWARD", "SLOTS DURING MATCH", "NATIVE CHILD EXIT 0", "RELEASED true", "DONE")) {
            assertTrue(r.contains(line), "'" + line + "'\n" + all);
        }
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", p.stdout(), "only the answer on the wire\n" + all);
        assertTrue(p.stderr().contains("inherited child"), "the native child wrote to the diversion\n" + all);
    }

    @Test
    void aClaimTakenWhileAWriterIsBlockedOnAnUnreadStderrPipeReturnsAndServes() throws Exception {
        Path report = dir.resolve("report");
        // The claim's log goes to a file: stderr is what is blocked, and a console handler would block on it too.
        Path logging = dir.resolve("logging.properties");
        Files.writeString(logging, "handlers=java.util.logging.FileHandler\njava.util.logging.FileHandler.pattern="
                + dir.resolve("claim.log").toString().replace('\\', '/') + "\n");
        Process p = new ProcessBuilder(command(List.of("-Djava.util.logging.config.file=" + logging),
                WindowsChildSession.class.getName(), report, "blockedstderr")).start(); // stderr unread until the end
        p.getOutputStream().write(REQUESTS.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        CompletableFuture<String> stdout = readAll(p.getInputStream());
        String out = stdout.get(120, TimeUnit.SECONDS);
        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        p.getErrorStream().close(); // never read: the writer stays blocked until the process ends
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String claim = r.stream().filter(l -> l.startsWith("CLAIM RETURNED")).findFirst().orElse("CLAIM never returned");
        System.out.println("real windows: a writer blocked on an unread stderr pipe when the claim starts: " + claim
                + ", " + (r.contains("SERVED 3") ? "served 3" : "did not serve") + ", exited " + exited);
        String all = "report " + r + "\nstdout " + out;
        assertTrue(r.contains("WRITER BLOCKED true"), all);
        assertTrue(claim.matches("CLAIM RETURNED \\d+ isolated=true stderr=DIVERTED"), all);
        assertEquals(RESPONSES, out, "only the answers on the wire\n" + all);
        assertTrue(r.contains("SERVED 3") && r.contains("DONE") && exited, all);
    }

    @Test
    void inheritIoChildrenRacingTwentyClaimsReachNoWireAndTheStartUpValuesEndAsTheyBegan() throws Exception {
        Path report = dir.resolve("report");
        ChildJvm.Result p = ChildJvm.run(command(report, "racingchild"), "", false, Duration.ofSeconds(180));
        List<String> r = Files.exists(report) ? Files.readAllLines(report) : List.of();
        String racing = r.stream().filter(l -> l.startsWith("RACING CHILDREN")).findFirst().orElse("RACING CHILDREN none");
        String expected = IntStream.rangeClosed(1, 20).mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":{}}\n")
                .collect(Collectors.joining());
        System.out.println("real windows: racing inheritIO() children: " + racing + ", wire " + (p.stdout().equals(expected)
                ? "clean" : "NOT clean") + ", " + r.stream().filter(l -> l.startsWith("STARTUP AFTER")).findFirst().orElse("?"));
        String all = "report " + r + "\n" + p.describe();
        assertEquals(0, p.exitCode(), all);
        assertEquals(expected, p.stdout(), "each claim's answer and nothing else: no child wrote to the wire\n" + all);
        assertTrue(r.contains("STARTUP AFTER MATCH") && r.contains("DONE"), all);
        assertTrue(racing.matches("RACING CHILDREN [1-9]\\d* FAILED 0 CLAIMS 20"), all);
    }

    @Test
    void aServerUnderCmdSlashCEndsWithinThreeSecondsOfItsHostsDeathThoughTheWrapperLives() throws Exception {
        Path pids = dir.resolve("pids");
        Path serverPid = dir.resolve("server.pid");
        List<String> server = command(List.of(), WatchedServer.class.getName(), serverPid);
        List<String> host = command(List.of(), WrapperHost.class.getName(), pids,
                server.stream().map(a -> a.contains(" ") ? "\"" + a + "\"" : a).toArray(String[]::new));
        // To files: the helper inherits the host's inheritable handles, and would hold pipes to here open.
        Process hostProcess = new ProcessBuilder(host).redirectOutput(dir.resolve("host.out").toFile())
                .redirectError(dir.resolve("host.err").toFile()).start();
        hostProcess.getOutputStream().close();
        boolean hostDied = hostProcess.waitFor(120, TimeUnit.SECONDS);
        long died = System.nanoTime();
        String[] p = Files.exists(pids) ? Files.readString(pids).split(" ", 3) : new String[0];
        long pid = Files.exists(serverPid) ? Long.parseLong(Files.readString(serverPid).strip()) : -1;
        java.util.Optional<ProcessHandle> s = ProcessHandle.of(pid);
        if (s.isPresent()) {
            try {
                s.get().onExit().get(10, TimeUnit.SECONDS); // the server's death is what is measured
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException outlived) {
                // still running after 10 s: reported below
            }
        }
        long outlived = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - died);
        boolean serverAlive = s.map(ProcessHandle::isAlive).orElse(false);
        boolean wrapperAlive = p.length > 0 && ProcessHandle.of(Long.parseLong(p[0])).map(ProcessHandle::isAlive).orElse(false);
        System.out.println("real windows: a server under cmd /c outlived its dead host by " + (serverAlive ? "more than 10 s"
                : outlived + " ms") + " (the wrapper " + (wrapperAlive ? "still alive" : "gone") + ")");
        for (String id : p.length > 1 ? new String[] {p[0], p[1]} : new String[0]) {
            ProcessHandle.of(Long.parseLong(id)).ifPresent(ProcessHandle::destroyForcibly);
        }
        s.ifPresent(ProcessHandle::destroyForcibly);
        String all = "pids " + List.of(p) + " server " + pid + ", host ended " + hostDied + "\n"
                + Files.readString(dir.resolve("host.err"));
        assertTrue(p.length == 3 && p[2].contains("\"id\":1"), "the host was answered through the wrapper\n" + all);
        assertTrue(!serverAlive && outlived <= 3_000, "ended within 3 s of its host's death\n" + all);
    }

    private static CompletableFuture<String> readAll(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return "(reading failed: " + e + ")";
            }
        });
    }
}
