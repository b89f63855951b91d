package io.mcpwire.platform.test.harness;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Runs a server in a child JVM over real pipes, for tests on real descriptors: a test JVM must
 * not claim its own standard streams, since the test runner (surefire) talks over them. The child
 * runs on this JVM's own module path and class path, so that it can be started with a plain
 * {@code java -p ... -m ...}, the way users start servers.
 */
public final class ChildJvm {
    private static final List<String> TEST_FRAMEWORK = List.of("junit", "opentest4j", "apiguardian", "surefire",
            "common-java5", "common-junit", "jspecify", "mockito", "byte-buddy", "objenesis", "jazzer");

    /** What a finished child left behind. */
    public record Result(int exitCode, String stdout, String stderr) {
        /** All of it, for assertion messages. */
        public String describe() {
            return "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    private ChildJvm() {
    }

    /** This JVM's {@code java} executable. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The options that give a child this JVM's line separator and default charset when they are
     * not the platform's own, as under {@code -Pwindows-conventions}; empty otherwise. Put them
     * right after {@link #java()}, so that a server in a child JVM follows the same conventions.
     */
    public static List<String> conventions() {
        String platformSeparator = System.getProperty("os.name", "").startsWith("Windows") ? "\r\n" : "\n";
        if (System.lineSeparator().equals(platformSeparator)) {
            return List.of();
        }
        return List.of("-Dline.separator=" + System.lineSeparator(), "-Dfile.encoding=" + System.getProperty("file.encoding"));
    }

    /**
     * This JVM's module path and class path entries, without the test framework's jars and
     * without test-classes directories (a child patches those in where it needs them).
     */
    public static List<String> pathEntries() {
        String all = System.getProperty("jdk.module.path", "") + File.pathSeparator + System.getProperty("java.class.path", "");
        return Arrays.stream(all.split(File.pathSeparator))
                .filter(e -> !e.isBlank() && !e.endsWith("test-classes"))
                .filter(e -> {
                    String name = Path.of(e).getFileName().toString();
                    return TEST_FRAMEWORK.stream().noneMatch(name::startsWith);
                })
                .distinct()
                .collect(Collectors.toList());
    }

    /** {@link #pathEntries()} joined for {@code -p} or {@code -cp}. */
    public static String path() {
        return String.join(File.pathSeparator, pathEntries());
    }

    /**
     * Starts {@code command}, writes {@code input} to its stdin (then closes it unless
     * {@code keepStdinOpen}), and waits up to {@code timeout} for it to exit.
     *
     * @throws AssertionError when it does not exit in time (it is killed)
     */
    public static Result run(List<String> command, String input, boolean keepStdinOpen, Duration timeout)
            throws IOException, InterruptedException {
        return run(new ProcessBuilder(command), input, keepStdinOpen, timeout);
    }

    /**
     * As {@link #run}, with the child's stderr merged into its stdout ({@code redirectErrorStream}):
     * on Windows the JDK then passes the child one handle value for both, as hosts that merge do.
     * The result's stdout holds both; its stderr is empty.
     */
    public static Result runWithStderrMerged(List<String> command, String input, Duration timeout)
            throws IOException, InterruptedException {
        return run(new ProcessBuilder(command).redirectErrorStream(true), input, false, timeout);
    }

    private static Result run(ProcessBuilder builder, String input, boolean keepStdinOpen, Duration timeout)
            throws IOException, InterruptedException {
        Process p = builder.start();
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().flush();
        if (!keepStdinOpen) {
            p.getOutputStream().close();
        }
        boolean exited = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        p.getOutputStream().close();
        Result r = new Result(exited ? p.exitValue() : -1, join(out), join(err));
        if (!exited) {
            throw new AssertionError("the child did not exit within " + timeout + "\n" + r.describe());
        }
        return r;
    }

    /** Reads a stream to its end on a thread of its own: a shared pool may be busy, and the child blocks on a full pipe. */
    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.complete("<" + e + ">");
            }
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
        return text;
    }

    private static String join(CompletableFuture<String> f) throws InterruptedException {
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return "<" + e + ">";
        }
    }
}
