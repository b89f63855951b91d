package io.mcpwire.benchmarks.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cost of the stray-output drain, side by side: the demo server with stderr a pipe the harness
 * reads, as hosts that show a server's log do, in three set-ups. {@code drained} is the default (fd
 * 1's stray output and fd 2 through the drain), {@code direct} drains fd 1 only
 * ({@code -Dmcpwire.stderr=direct}), and {@code undrained} writes stray output to stderr
 * directly, as before the drain ({@code -Dmcpwire.stray-output=/dev/stderr}, a path, which is never
 * drained). Each is measured with a tool that prints ({@code spill}, 1 KiB to stdout and 1 KiB to
 * stderr per call) and with one that does not ({@code echo}, 1 KiB).
 */
final class StrayOutputRun {
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    private static final String SPILL = "\"method\":\"tools/call\",\"params\":{\"name\":\"spill\",\"arguments\":{\"kib\":1}}}\n";
    private static final String ECHO = "\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
            + "a".repeat(1024) + "\"}}}\n";

    private final Path root;
    private final Map<String, List<String>> setups = new LinkedHashMap<>();
    private final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();

    StrayOutputRun(Path root, List<String> demoServer) {
        this.root = root;
        setups.put("drained", withProperty(demoServer, null));
        setups.put("direct", withProperty(demoServer, "-Dmcpwire.stderr=direct"));
        setups.put("undrained", withProperty(demoServer, "-Dmcpwire.stray-output=/dev/stderr"));
    }

    private static List<String> withProperty(List<String> command, String property) {
        List<String> c = new ArrayList<>(command);
        if (property != null) {
            c.add(1, property); // after the java binary, before the argument file
        }
        return c;
    }

    /** {@code rounds} rounds of {@code calls} pipelined calls and {@code sequential} calls one at a time, per set-up and tool. */
    void run(int rounds, int calls, int sequential) throws IOException, InterruptedException {
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, List<String>> s : setups.entrySet()) {
                for (String tool : List.of("spill", "echo")) {
                    measure(s.getKey(), s.getValue(), tool, calls, sequential);
                }
            }
        }
        System.err.println("bench: stray output done");
    }

    private void measure(String setup, List<String> command, String tool, int calls, int sequential)
            throws IOException, InterruptedException {
        try (PeerProcess proc = new PeerProcess(command, root, true)) {
            proc.send(INIT.getBytes(StandardCharsets.UTF_8));
            if (proc.readLine() == null) {
                return;
            }
            proc.send(INITIALIZED.getBytes(StandardCharsets.UTF_8));
            String call = tool.equals("spill") ? SPILL : ECHO;
            long[] rtt = new long[sequential];
            for (int i = 0; i < sequential; i++) {
                long t0 = System.nanoTime();
                proc.send(("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 1) + "," + call).getBytes(StandardCharsets.US_ASCII));
                if (proc.readId() != i + 1) {
                    return;
                }
                rtt[i] = System.nanoTime() - t0;
            }
            Arrays.sort(rtt);
            record(tool + " p50, us", setup, rtt[rtt.length / 2] / 1e3);
            long first = sequential + 1;
            Thread writer = new Thread(() -> {
                try {
                    OutputStream in = proc.input();
                    for (long id = first; id < first + calls; id++) {
                        in.write(("{\"jsonrpc\":\"2.0\",\"id\":" + id + "," + call).getBytes(StandardCharsets.US_ASCII));
                    }
                    in.flush();
                } catch (IOException e) {
                    // the server has gone; the reader sees it
                }
            }, "bench-stray-writer");
            long t0 = System.nanoTime();
            writer.start();
            int received = 0;
            while (received < calls && proc.readId() != -2) {
                received++;
            }
            long t1 = System.nanoTime();
            writer.join(10_000);
            if (received == calls) {
                record(tool + " throughput, calls/s", setup, calls / ((t1 - t0) / 1e9));
            }
        }
    }

    private void record(String metric, String setup, double value) {
        figures.computeIfAbsent(metric, k -> new LinkedHashMap<>()).computeIfAbsent(setup, k -> new ArrayList<>()).add(value);
    }

    /** The table: medians, each with its ratio to {@code undrained}. */
    void report() {
        System.out.println();
        System.out.println("stray output, stderr a pipe the host reads: the demo server (median, ratio to undrained)");
        StringBuilder head = new StringBuilder(String.format("%-32s", ""));
        setups.keySet().forEach(s -> head.append(String.format(" %17s", s)));
        System.out.println(head);
        figures.forEach((metric, bySetup) -> {
            StringBuilder row = new StringBuilder(String.format("%-32s", metric));
            double base = median(bySetup.get("undrained"));
            for (String s : setups.keySet()) {
                double v = median(bySetup.get(s));
                row.append(String.format(" %17s", Double.isNaN(v) ? "-"
                        : String.format(Locale.ROOT, v >= 100 ? "%,.0f x%.2f" : "%.1f x%.2f", v, v / base)));
            }
            System.out.println(row);
        });
    }

    private static double median(List<Double> v) {
        if (v == null || v.isEmpty()) {
            return Double.NaN;
        }
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
