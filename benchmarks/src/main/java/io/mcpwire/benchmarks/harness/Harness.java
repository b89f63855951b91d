package io.mcpwire.benchmarks.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The end-to-end comparison: each server runs as its own process and is driven over pipes, the
 * servers taking turns within every round so that the machine's drift falls on all of them alike.
 * Prints one table of medians with each figure's ratio to the official Java SDK's default server,
 * and a last {@code summary:} line. Started by {@code benchmarks/run [--quick]}.
 */
public final class Harness {
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcpwire-bench\",\"version\":\"1\"}}}\n";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

    /** A server under test; {@code mcp} is false for peers that only echo lines (cat). */
    record Peer(String name, List<String> command, boolean mcp) {
    }

    /** How much to measure. */
    record Config(int coldRuns, int pings, int calls, int rounds, int bigRuns) {
    }

    private final Path root;
    private final Config config;
    private final List<Peer> peers;
    private final Results results;
    /** Each peer's batches that stalled once: a stall costs a minute and tells nothing new, so it is not asked again. */
    private final Set<String> stalledBatches = new HashSet<>();
    /** With {@code --threads}: each server thread's CPU time in each batch, as rows of the table. */
    private boolean threadCpu;

    private Harness(Path root, Config config, List<Peer> peers) {
        this.root = root;
        this.config = config;
        this.peers = peers;
        this.results = new Results(peers);
    }

    public static void main(String[] args) throws Exception {
        boolean quick = Arrays.asList(args).contains("--quick");
        Config preset = quick ? new Config(5, 2_000, 20_000, 1, 1) : new Config(20, 20_000, 200_000, 5, 3);
        // For profiling one figure: --calls N (batch size), --pings N, --rounds N (more rounds of
        // latency and throughput, for a median that one pair's noise moves less); --threads (CPU per thread).
        Config config = new Config(preset.coldRuns(), intOption(args, "--pings", preset.pings()),
                intOption(args, "--calls", preset.calls()), intOption(args, "--rounds", preset.rounds()), preset.bigRuns());
        Path root = Path.of(System.getProperty("mcpwire.root", ".")).toAbsolutePath().normalize();
        List<Peer> peers = Peers.chosen(root, args);
        Harness h = new Harness(root, config, peers);
        h.threadCpu = Arrays.asList(args).contains("--threads");
        h.header(quick);
        h.run();
        h.results.print();
        h.strayOutput();
    }

    /** The drain's cost, with a tool that prints, beside the same server undrained; skipped when --only leaves out mcpwire. */
    private void strayOutput() throws IOException, InterruptedException {
        Peer demo = peers.stream().filter(p -> p.name().equals("mcpwire")).findFirst().orElse(null);
        if (demo != null) {
            StrayOutputRun stray = new StrayOutputRun(root, demo.command());
            stray.run(config.rounds(), config.calls() / 10, config.pings() / 10);
            stray.report();
        }
    }

    private void header(boolean quick) {
        System.out.printf("mcpwire end-to-end benchmark%s: %d cores, %s %s, Java %s, %s%n", quick ? " (--quick)" : "",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.version"), cpuModel());
        System.out.printf("cold start x%d, %,d sequential pings, %,d pipelined 1 KiB echo calls (fresh, then warm) x%d rounds, 8 MiB echo x%d%n%n",
                config.coldRuns(), config.pings(), config.calls(), config.rounds(), config.bigRuns());
    }

    private void run() throws Exception {
        List<Peer> mcp = peers.stream().filter(Peer::mcp).toList();
        for (int r = 0; r < config.coldRuns(); r++) {
            for (Peer p : mcp) {
                coldStart(p);
            }
        }
        progress("cold start");
        for (int r = 0; r < config.rounds(); r++) {
            for (Peer p : mcp) {
                latency(p);
            }
        }
        progress("latency");
        for (int r = 0; r < config.rounds(); r++) {
            for (Peer p : peers) {
                throughput(p);
            }
        }
        progress("throughput");
        for (int r = 0; r < config.bigRuns(); r++) {
            for (Peer p : mcp) {
                bigMessage(p);
            }
        }
        progress("8 MiB message");
    }

    private static void progress(String what) {
        System.err.println("bench: " + what + " done");
    }

    private void record(String metric, Peer p, double value) {
        results.record(metric, p, value);
    }

    private PeerProcess start(Peer p) throws IOException {
        return new PeerProcess(p.command(), root);
    }

    /** Starts the server and completes the MCP handshake; null when it failed, recorded as an incident. */
    private PeerProcess initialized(Peer p) throws IOException {
        PeerProcess proc = start(p);
        proc.send(INIT.getBytes(StandardCharsets.UTF_8));
        if (proc.readLine() == null) {
            results.incident(p, "no answer to initialize");
            proc.close();
            return null;
        }
        if (p.mcp()) {
            proc.send(INITIALIZED.getBytes(StandardCharsets.UTF_8));
        }
        return proc;
    }

    // --------------------------------------------------------------- 1. cold start

    private void coldStart(Peer p) throws IOException {
        long t0 = System.nanoTime();
        PeerProcess proc = start(p);
        proc.send(INIT.getBytes(StandardCharsets.UTF_8));
        byte[] answer = proc.readLine();
        long t1 = System.nanoTime();
        proc.close();
        if (answer == null) {
            results.incident(p, "cold start: no answer to initialize");
        } else {
            record("cold start, ms", p, (t1 - t0) / 1e6);
        }
    }

    // --------------------------------------------------------------- 2. latency

    private void latency(Peer p) throws IOException {
        PeerProcess proc = initialized(p);
        if (proc == null) {
            return;
        }
        long[] rtt = new long[config.pings()];
        try {
            for (int i = 0; i < rtt.length; i++) {
                byte[] ping = ("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 1) + ",\"method\":\"ping\"}\n").getBytes(StandardCharsets.US_ASCII);
                long t0 = System.nanoTime();
                proc.send(ping);
                if (proc.readId() != i + 1) {
                    results.incident(p, "latency: wrong or no answer at ping " + (i + 1));
                    return;
                }
                rtt[i] = System.nanoTime() - t0;
            }
        } finally {
            proc.close();
        }
        Arrays.sort(rtt);
        record("ping p50, us", p, rtt[rtt.length / 2] / 1e3);
        record("ping p99, us", p, rtt[(int) (rtt.length * 0.99)] / 1e3);
    }

    // --------------------------------------------------------------- 3. throughput

    private void throughput(Peer p) throws Exception {
        if (stalledBefore(p, "fresh")) {
            return;
        }
        PeerProcess proc = initialized(p);
        if (proc == null) {
            return;
        }
        try {
            if (batch(p, proc, 1, "fresh") && !stalledBefore(p, "warm")) {
                batch(p, proc, 1 + config.calls(), "warm");
            }
        } finally {
            proc.close();
        }
    }

    /** Whether {@code p} stalled in a {@code phase} batch of an earlier round: it is not asked again, and that is said once. */
    private boolean stalledBefore(Peer p, String phase) {
        if (!stalledBatches.contains(p.name() + " " + phase)) {
            return false;
        }
        if (stalledBatches.add(p.name() + " " + phase + " skipped")) {
            results.incident(p, phase + " batch: not run again in later rounds, after its stall");
        }
        return true;
    }

    /** One pipelined batch of echo calls; false when the server crashed or stalled. */
    private boolean batch(Peer p, PeerProcess proc, long firstId, String phase) throws Exception {
        int n = config.calls();
        byte[] head = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.US_ASCII);
        byte[] tail = (",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
                + "a".repeat(1024) + "\"}}}\n").getBytes(StandardCharsets.US_ASCII);
        Thread writer = new Thread(() -> {
            try {
                OutputStream in = proc.input();
                for (long id = firstId; id < firstId + n; id++) {
                    in.write(head);
                    in.write(Long.toString(id).getBytes(StandardCharsets.US_ASCII));
                    in.write(tail);
                }
                in.flush();
            } catch (IOException e) {
                // the server has gone; the reader sees it
            }
        }, "bench-writer");
        ThreadCpu.Span cpu = threadCpu ? ThreadCpu.start(proc.pid()) : ThreadCpu.Span.NONE;
        long t0 = System.nanoTime();
        writer.start();
        BitSet seen = new BitSet(n);
        long maxSeen = -1;
        long duplicated = 0;
        long reordered = 0;
        int received = 0;
        long last = t0;
        for (int k = 0; k < n; k++) {
            long id = proc.readId();
            if (id == -2) {
                break; // end of output: crashed, or stalled and killed
            }
            last = System.nanoTime();
            int index = (int) (id - firstId);
            if (id < firstId || index >= n) {
                continue;
            }
            if (seen.get(index)) {
                duplicated++;
            } else {
                seen.set(index);
                received++;
                if (id < maxSeen) {
                    reordered++;
                }
                maxSeen = Math.max(maxSeen, id);
            }
        }
        writer.join(10_000);
        cpu.end((thread, seconds) -> record(phase + " CPU s, " + thread, p, seconds));
        results.integrity(p, n - received, duplicated, reordered);
        if (received > 0) {
            // A peer that crashes is measured at the rate it kept up until then.
            record("throughput " + phase + ", msg/s", p, received / ((last - t0) / 1e9));
        }
        if (received < n) {
            if (proc.stalled()) {
                stalledBatches.add(p.name() + " " + phase);
            }
            results.incident(p, phase + " batch: " + (proc.stalled() ? "stalled (no answer for 60 s)" : "crashed")
                    + " after " + received + " answers");
            return false;
        }
        return true;
    }

    // --------------------------------------------------------------- 4. one 8 MiB message

    private void bigMessage(Peer p) throws Exception {
        PeerProcess proc = initialized(p);
        if (proc == null) {
            return;
        }
        try {
            for (int i = 0; i < 5; i++) { // a few pings, as a host's session begins
                proc.send(("{\"jsonrpc\":\"2.0\",\"id\":" + (100 + i) + ",\"method\":\"ping\"}\n").getBytes(StandardCharsets.US_ASCII));
                if (proc.readLine() == null) {
                    results.incident(p, "idle: no answer to a ping");
                    return;
                }
            }
            Thread.sleep(1_500); // settle, past the second after which mcpwire's reader thread rests
            idleWakeups(p, proc);
            long idle = proc.statusKib("VmRSS");
            if (idle > 0) {
                record("idle RSS after initialize, MiB", p, idle / 1024.0);
            }
            proc.resetPeak();
            byte[] request = ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
                    + "b".repeat(8 * 1024 * 1024) + "\"}}}\n").getBytes(StandardCharsets.US_ASCII);
            long t0 = System.nanoTime();
            proc.send(request);
            byte[] answer = proc.readLine();
            long t1 = System.nanoTime();
            if (answer == null || idOf(answer) != 7 || answer.length < 8 * 1024 * 1024) {
                results.incident(p, "8 MiB echo: " + (answer == null ? "no answer" : "a wrong answer of " + answer.length + " bytes"));
                return;
            }
            record("8 MiB round trip, ms", p, (t1 - t0) / 1e6);
            long peak = proc.statusKib("VmHWM");
            if (idle > 0 && peak > 0) {
                record("8 MiB peak RSS above idle, MiB", p, Math.max(0, peak - idle) / 1024.0);
            }
        } finally {
            proc.close();
        }
    }

    /** The number after {@code name} in {@code args}, or {@code otherwise} when it is not given. */
    private static int intOption(String[] args, String name, int otherwise) {
        int at = Arrays.asList(args).indexOf(name);
        return at >= 0 ? Integer.parseInt(args[at + 1]) : otherwise;
    }

    /** How often the idle server's threads wake, over two seconds: the cost of being started and left alone. */
    private void idleWakeups(Peer p, PeerProcess proc) throws InterruptedException {
        long before = ThreadCpu.voluntarySwitches(proc.pid());
        long t0 = System.nanoTime();
        Thread.sleep(2_000); // the window measured, not a wait for anything
        long after = ThreadCpu.voluntarySwitches(proc.pid());
        if (before >= 0 && after >= before) {
            record("idle wake-ups per second", p, (after - before) / ((System.nanoTime() - t0) / 1e9));
        }
    }

    /** The response's id, which peers put first or last. */
    private static long idOf(byte[] line) {
        long head = PeerProcess.idIn(line, 0, Math.min(line.length, 64));
        return head >= 0 ? head : PeerProcess.idIn(line, Math.max(0, line.length - 64), line.length);
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("cpu unknown");
        } catch (IOException e) {
            return "cpu unknown";
        }
    }
}
