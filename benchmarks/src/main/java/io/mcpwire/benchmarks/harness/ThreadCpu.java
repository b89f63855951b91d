package io.mcpwire.benchmarks.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A process's CPU time by thread, from Linux's {@code /proc/<pid>/task/<tid>/stat}: user plus
 * system time, in seconds, summed over threads of one name (numbered ones, such as the JIT's
 * compiler threads, folded together), and how often its threads have slept and woken. Empty where
 * there is no {@code /proc} or the process has ended.
 */
final class ThreadCpu {
    /** The clock ticks per second of {@code stat}'s times ({@code USER_HZ}), 100 on every Linux the harness runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    private ThreadCpu() {
    }

    static Map<String, Double> of(long pid) {
        Map<String, Double> seconds = new TreeMap<>();
        eachThread(pid, "stat", stat -> {
            // pid (comm) state ...: the name may hold spaces and parentheses, so cut at the last ')'.
            String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+$", "#");
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
            seconds.merge(name, ticks / TICKS_PER_SECOND, Double::sum);
        });
        return seconds;
    }

    /**
     * How many times the threads of {@code pid} have gone to sleep and been woken, summed
     * ({@code voluntary_ctxt_switches} of each thread's {@code status}); -1 where there is no /proc.
     */
    static long voluntarySwitches(long pid) {
        if (!Files.isDirectory(Path.of("/proc", Long.toString(pid), "task"))) {
            return -1;
        }
        long[] sum = {0};
        eachThread(pid, "status", status -> status.lines().filter(l -> l.startsWith("voluntary_ctxt_switches:"))
                .forEach(l -> sum[0] += Long.parseLong(l.replaceAll("[^0-9]", ""))));
        return sum[0];
    }

    /** Gives {@code file} of each thread of {@code pid} to {@code read}, skipping threads that end meanwhile. */
    private static void eachThread(long pid, String file, Consumer<String> read) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return;
        }
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                String text;
                try {
                    text = Files.readString(thread.resolve(file));
                } catch (NoSuchFileException ended) {
                    continue; // the thread ended meanwhile
                }
                read.accept(text);
            }
        } catch (NoSuchFileException gone) {
            // the process ended meanwhile (a peer that crashed): what was read so far
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts measuring what each thread of {@code pid} uses. */
    static Span start(long pid) {
        Map<String, Double> before = of(pid);
        return used -> of(pid).forEach((name, s) -> {
            double seconds = s - before.getOrDefault(name, 0.0);
            if (seconds >= 0.05) { // threads that did something
                used.accept(name, seconds);
            }
        });
    }

    /** A measurement begun by {@link #start}. */
    interface Span {
        /** Measures nothing. */
        Span NONE = used -> { };

        /** Gives each thread's CPU time since the start, in seconds, for threads that used some. */
        void end(BiConsumer<String, Double> used);
    }
}
