package io.mcpwire.platform.windows;

import io.mcpwire.stdio.StdioClaim;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sessions of the real Windows test that race the claim: a thread blocked writing a stderr
 * nobody reads since before the claim, and a thread starting {@code inheritIO()} children while
 * claims come and go. Each reports what it saw, a line at a time.
 */
final class WindowsRaces {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    /** Where a session writes what it saw. */
    @FunctionalInterface
    interface Report {
        void line(String line) throws IOException;
    }

    private WindowsRaces() {
    }

    /**
     * An application thread writes 1 MiB to {@code System.err}, which the parent does not read, and
     * blocks in {@code WriteFile} holding the pipe's file-object lock; then the claim is taken (its
     * {@code GetFileType} of fd 2 would wait for that lock for good), serves every request and is
     * released.
     */
    static void blockedStderr(Report report) throws Exception {
        Thread writer = new Thread(() -> {
            byte[] big = new byte[1 << 20];
            Arrays.fill(big, (byte) 'e');
            System.err.write(big, 0, big.length);
            System.err.flush();
        }, "blocked stderr writer");
        writer.setDaemon(true);
        writer.start();
        // Blocked: inside the native write and no longer running (its CPU time stands still). A
        // blocked thread signals nothing, so the child looks every 10 ms.
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long cpu = -1;
        while (System.nanoTime() < deadline) {
            long now = threads.getThreadCpuTime(writer.getId());
            if (inNativeWrite(writer) && now == cpu) {
                break;
            }
            cpu = now;
            Thread.sleep(10);
        }
        report.line("WRITER BLOCKED " + inNativeWrite(writer));
        long started = System.nanoTime();
        StdioClaim claim = StdioClaim.acquire();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        report.line("CLAIM RETURNED " + ms + " isolated=" + claim.isIsolated() + " stderr=" + claim.stderrState());
        report.line("SERVED " + serve(claim));
        claim.close();
        report.line("STDERR AFTER " + claim.stderrState());
        report.line("DONE");
    }

    private static boolean inNativeWrite(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        return t.getState() == Thread.State.RUNNABLE && stack.length > 0 && stack[0].isNativeMethod()
                && stack[0].getMethodName().startsWith("write");
    }

    /**
     * A thread starts {@code cmd /c exit 0} children with {@code inheritIO()}, one after another,
     * while twenty claims are taken and released, each writing one answer: no child may get a
     * private duplicate of a wire, and the start-up values end as they began.
     */
    static void racingChildren(Report report, Callable<String> startupMatch) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Thread racer = new Thread(() -> {
            while (!stop.get()) {
                try {
                    new ProcessBuilder("cmd.exe", "/c", "exit 0").inheritIO().start().waitFor();
                    started.incrementAndGet();
                } catch (IOException e) {
                    failed.incrementAndGet();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "racing inheritIO() children");
        racer.start();
        int claims = 20;
        for (int i = 1; i <= claims; i++) {
            try (StdioClaim claim = StdioClaim.acquire()) {
                claim.output().write(("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":{}}\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        stop.set(true);
        racer.join();
        report.line("RACING CHILDREN " + started.get() + " FAILED " + failed.get() + " CLAIMS " + claims);
        report.line("STARTUP AFTER " + startupMatch.call());
        report.line("DONE");
    }

    private static int serve(StdioClaim claim) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(claim.input(), StandardCharsets.UTF_8));
        OutputStream out = claim.output();
        int served = 0;
        for (String line; (line = in.readLine()) != null; ) {
            Matcher m = ID.matcher(line);
            out.write(("{\"jsonrpc\":\"2.0\",\"id\":" + (m.find() ? m.group(1) : "null") + ",\"result\":{}}\n")
                    .getBytes(StandardCharsets.UTF_8));
            served++;
        }
        return served;
    }
}
