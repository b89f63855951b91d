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

/**
 * A process's CPU time by thread, from Linux's {@code /proc/<pid>/task/<tid>/stat}: user plus
 * system time, in seconds, summed over threads of one name (numbered ones, such as the JIT's
 * compiler threads, folded together). Empty where there is no {@code /proc} or the process has ended.
 */
final class ThreadCpu {
    /** The clock ticks per second of {@code stat}'s times ({@code USER_HZ}), 100 on every Linux the harness runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    private ThreadCpu() {
    }

    static Map<String, Double> of(long pid) {
        Map<String, Double> seconds = new TreeMap<>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return seconds;
        }
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                String stat;
                try {
                    stat = Files.readString(thread.resolve("stat"));
                } catch (NoSuchFileException ended) {
                    continue; // the thread ended meanwhile
                }
                // pid (comm) state ...: the name may hold spaces and parentheses, so cut at the last ')'.
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+$", "#");
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                seconds.merge(name, ticks / TICKS_PER_SECOND, Double::sum);
            }
        } catch (NoSuchFileException gone) {
            // the process ended meanwhile (a peer that crashed): what was read so far
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return seconds;
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
