package io.mcpwire.benchmarks.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
    private final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();
    private final Map<String, List<String>> incidents = new LinkedHashMap<>();
    private final Map<String, long[]> integrity = new LinkedHashMap<>(); // missing, duplicated, out of order
    /** With {@code --threads}: each server thread's CPU time in each batch, as rows of the table. */
    private boolean threadCpu;

    private Harness(Path root, Config config, List<Peer> peers) {
        this.root = root;
        this.config = config;
        this.peers = peers;
        for (Peer p : peers) {
            incidents.put(p.name(), new ArrayList<>());
            integrity.put(p.name(), new long[3]);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean quick = Arrays.asList(args).contains("--quick");
        Config config = quick ? new Config(5, 2_000, 20_000, 1, 1) : new Config(20, 20_000, 200_000, 3, 3);
        // For profiling one figure: --calls N (batch size), --pings N; --threads (CPU per thread).
        int calls = Arrays.asList(args).indexOf("--calls");
        if (calls >= 0) {
            config = new Config(config.coldRuns(), config.pings(), Integer.parseInt(args[calls + 1]), config.rounds(), config.bigRuns());
        }
        int pings = Arrays.asList(args).indexOf("--pings");
        if (pings >= 0) {
            config = new Config(config.coldRuns(), Integer.parseInt(args[pings + 1]), config.calls(), config.rounds(), config.bigRuns());
        }
        Path root = Path.of(System.getProperty("mcpwire.root", ".")).toAbsolutePath().normalize();
        List<Peer> peers = Peers.chosen(root, args);
        Harness h = new Harness(root, config, peers);
        h.threadCpu = Arrays.asList(args).contains("--threads");
        h.header(quick);
        h.run();
        h.report();
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
        figures.computeIfAbsent(metric, k -> new LinkedHashMap<>()).computeIfAbsent(p.name(), k -> new ArrayList<>()).add(value);
    }

    private PeerProcess start(Peer p) throws IOException {
        return new PeerProcess(p.command(), root);
    }

    /** Starts the server and completes the MCP handshake; null when it failed, recorded as an incident. */
    private PeerProcess initialized(Peer p) throws IOException {
        PeerProcess proc = start(p);
        proc.send(INIT.getBytes(StandardCharsets.UTF_8));
        if (proc.readLine() == null) {
            incidents.get(p.name()).add("no answer to initialize");
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
            incidents.get(p.name()).add("cold start: no answer to initialize");
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
                    incidents.get(p.name()).add("latency: wrong or no answer at ping " + (i + 1));
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
        PeerProcess proc = initialized(p);
        if (proc == null) {
            return;
        }
        try {
            if (batch(p, proc, 1, "fresh")) {
                batch(p, proc, 1 + config.calls(), "warm");
            }
        } finally {
            proc.close();
        }
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
        long[] bad = integrity.get(p.name());
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
                bad[1]++;
            } else {
                seen.set(index);
                received++;
                if (id < maxSeen) {
                    bad[2]++;
                }
                maxSeen = Math.max(maxSeen, id);
            }
        }
        writer.join(10_000);
        cpu.end((thread, seconds) -> record(phase + " CPU s, " + thread, p, seconds));
        bad[0] += n - received;
        if (received > 0) {
            // A peer that crashes is measured at the rate it kept up until then.
            record("throughput " + phase + ", msg/s", p, received / ((last - t0) / 1e9));
        }
        if (received < n) {
            incidents.get(p.name()).add(phase + " batch: " + (proc.stalled() ? "stalled (no answer for 60 s)" : "crashed")
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
                    incidents.get(p.name()).add("idle: no answer to a ping");
                    return;
                }
            }
            Thread.sleep(500); // settle
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
                incidents.get(p.name()).add("8 MiB echo: " + (answer == null ? "no answer" : "a wrong answer of " + answer.length + " bytes"));
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

    /** The response's id, which peers put first or last. */
    private static long idOf(byte[] line) {
        long head = PeerProcess.idIn(line, 0, Math.min(line.length, 64));
        return head >= 0 ? head : PeerProcess.idIn(line, Math.max(0, line.length - 64), line.length);
    }

    // --------------------------------------------------------------- the table

    private static double median(List<Double> v) {
        if (v == null || v.isEmpty()) {
            return Double.NaN;
        }
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    private double median(String metric, String peer) {
        return median(figures.getOrDefault(metric, Map.of()).get(peer));
    }

    private void report() {
        int w = 17;
        StringBuilder head = new StringBuilder(String.format("%-32s", "median (ratio to official)"));
        peers.forEach(p -> head.append(String.format(" %" + w + "s", p.name()))); // a space always separates columns
        System.out.println(head);
        for (String metric : figures.keySet()) {
            StringBuilder row = new StringBuilder(String.format("%-32s", metric));
            double base = median(metric, "official");
            for (Peer p : peers) {
                double v = median(metric, p.name());
                String cell = Double.isNaN(v) ? "-" : format(v)
                        + (Double.isNaN(base) || base == 0 ? "" : String.format(Locale.ROOT, " x%.2f", v / base));
                row.append(String.format(" %" + w + "s", cell));
            }
            System.out.println(row);
        }
        StringBuilder row = new StringBuilder(String.format("%-32s", "missing/duplicated/reordered"));
        for (Peer p : peers) {
            long[] b = integrity.get(p.name());
            row.append(String.format(" %" + w + "s", b[0] + "/" + b[1] + "/" + b[2]));
        }
        System.out.println(row);
        System.out.println("(a peer that crashed or stalled is measured at the rate it kept until then; see its incidents)");
        System.out.println();
        incidents.forEach((peer, list) -> {
            if (!list.isEmpty()) {
                System.out.println("incidents, " + peer + ": " + String.join("; ", list));
            }
        });
        System.out.printf(Locale.ROOT, "summary: throughput x%s, p50 latency x%s, cold start x%s (mcpwire / official Java SDK)%n",
                ratio("throughput fresh, msg/s"), ratio("ping p50, us"), ratio("cold start, ms"));
        System.out.printf(Locale.ROOT, "cold start vs TypeScript SDK: x%s (mcpwire-25 / typescript), x%s (mcpwire / typescript)%n",
                ratio("cold start, ms", "mcpwire-25", "typescript"), ratio("cold start, ms", "mcpwire", "typescript"));
        System.out.printf(Locale.ROOT, "bridge: throughput x%s, p50 latency x%s (official-bridge / official-imm)%n",
                ratio("throughput fresh, msg/s", "official-bridge", "official-imm"),
                ratio("ping p50, us", "official-bridge", "official-imm"));
        System.out.printf(Locale.ROOT, "spring starter: cold start x%s, throughput x%s, p50 latency x%s (spring-mcpwire / spring)%n",
                ratio("cold start, ms", "spring-mcpwire", "spring"),
                ratio("throughput fresh, msg/s", "spring-mcpwire", "spring"),
                ratio("ping p50, us", "spring-mcpwire", "spring"));
        System.out.printf(Locale.ROOT, "kotlin: cold start x%s, throughput fresh x%s, warm x%s, p50 latency x%s (kotlin-mcpwire / kotlin)%n",
                ratio("cold start, ms", "kotlin-mcpwire", "kotlin"),
                ratio("throughput fresh, msg/s", "kotlin-mcpwire", "kotlin"),
                ratio("throughput warm, msg/s", "kotlin-mcpwire", "kotlin"),
                ratio("ping p50, us", "kotlin-mcpwire", "kotlin"));
    }

    private String ratio(String metric) {
        return ratio(metric, "mcpwire", "official");
    }

    private String ratio(String metric, String peer, String base) {
        double r = median(metric, peer) / median(metric, base);
        return Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, "%.2f", r);
    }

    private static String format(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
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
