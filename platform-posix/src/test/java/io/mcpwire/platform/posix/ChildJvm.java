package io.mcpwire.platform.posix;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Starts {@link ChildSession} in a child JVM with a plain {@code java -p ... -m ...}, on this
 * test's own module path, and collects what it printed and reported.
 */
final class ChildJvm {

    /** What a finished child left behind. */
    record Result(int exitCode, String stdout, String stderr, List<String> report) {
        boolean reported(String line) {
            return report.contains(line);
        }

        String describe() {
            return "exit " + exitCode + "\nreport:\n  " + String.join("\n  ", report) + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    private ChildJvm() {
    }

    /** The command that runs {@code ChildSession mode report}. */
    static List<String> command(String mode, Path report) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=com.sun.jna");
        cmd.add("-p");
        cmd.add(modulePath());
        // The child program lives in this module's test classes.
        cmd.add("--patch-module");
        cmd.add("io.mcpwire.platform.posix=" + Path.of("target", "test-classes").toAbsolutePath());
        cmd.add("--add-modules");
        cmd.add("io.mcpwire.stdio");
        cmd.add("--add-reads");
        cmd.add("io.mcpwire.platform.posix=io.mcpwire.stdio");
        cmd.add("-m");
        cmd.add("io.mcpwire.platform.posix/" + ChildSession.class.getName());
        cmd.add(mode);
        cmd.add(report.toString());
        return cmd;
    }

    /** Our modules and their libraries, from this JVM's module path and class path. */
    private static String modulePath() {
        String all = System.getProperty("jdk.module.path", "") + File.pathSeparator + System.getProperty("java.class.path", "");
        return Arrays.stream(all.split(File.pathSeparator))
                .filter(e -> !e.isBlank())
                .filter(e -> {
                    String name = Path.of(e).getFileName().toString();
                    return e.endsWith(File.separator + "target" + File.separator + "classes")
                            || name.startsWith("jna") || name.startsWith("jackson")
                            || name.startsWith("mcp-") || name.startsWith("platform-");
                })
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * Runs the child: writes {@code input} to its stdin, then closes it unless
     * {@code keepStdinOpen}, and waits for it to exit.
     */
    static Result run(List<String> command, Path report, String input, boolean keepStdinOpen) throws Exception {
        Files.deleteIfExists(report);
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(p, true));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(p, false));
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().flush();
        if (!keepStdinOpen) {
            p.getOutputStream().close();
        }
        boolean exited = p.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        p.getOutputStream().close();
        List<String> lines = Files.exists(report) ? Files.readAllLines(report) : List.of();
        Result r = new Result(exited ? p.exitValue() : -1, out.get(30, TimeUnit.SECONDS), err.get(30, TimeUnit.SECONDS), lines);
        if (!exited) {
            throw new AssertionError("the child did not exit within 120 s\n" + r.describe());
        }
        return r;
    }

    private static String readAll(Process p, boolean stdout) {
        try {
            return new String((stdout ? p.getInputStream() : p.getErrorStream()).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "<" + e + ">";
        }
    }
}
