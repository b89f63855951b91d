package io.mcpwire.quarkus.it;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.platform.test.harness.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The test application as a host runs it: {@code java -jar quarkus-run.jar} on real pipes. A
 * {@link Running} one is spoken to line by line, and keeps every byte of its stdout.
 */
final class QuarkusApp {
    /** The application Quarkus built in this module. */
    static final Path JAR = Path.of(System.getProperty("quarkus.app.jar", "target/quarkus-app/quarkus-run.jar"));
    /** How long any one answer, or the exit, may take: a deadline against hangs, not a demand for speed. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    private QuarkusApp() {
    }

    /** {@code java OPTIONS -jar quarkus-run.jar}, with this JVM's conventions. */
    static List<String> command(String... jvmOptions) {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java()));
        command.addAll(ChildJvm.conventions());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
        return command;
    }

    static Running start(ProcessBuilder builder) throws IOException {
        return new Running(builder.start());
    }

    static Running start(String... jvmOptions) throws IOException {
        return start(new ProcessBuilder(command(jvmOptions)));
    }

    /** A started application: its stdin, its stdout line by line, its stderr. */
    static final class Running implements AutoCloseable {
        private final Process process;
        private final OutputStream stdin;
        private final BlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();
        private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        private final Thread outReader;
        private final Thread errReader;
        private final JsonRpcCodec codec = JsonRpcCodec.standard();

        private Running(Process process) {
            this.process = process;
            this.stdin = process.getOutputStream();
            this.outReader = reader(process.getInputStream(), stdout, true, "app-stdout");
            this.errReader = reader(process.getErrorStream(), stderr, false, "app-stderr");
        }

        private Thread reader(InputStream in, ByteArrayOutputStream all, boolean split, String name) {
            Thread t = new Thread(() -> {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                byte[] buffer = new byte[65536];
                try {
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        synchronized (all) {
                            all.write(buffer, 0, n);
                        }
                        for (int i = 0; split && i < n; i++) {
                            if (buffer[i] == '\n') {
                                lines.add(line.toByteArray());
                                line.reset();
                            } else {
                                line.write(buffer[i]);
                            }
                        }
                    }
                } catch (IOException e) {
                    // the application closed it, or is gone
                }
            }, name);
            t.setDaemon(true);
            t.start();
            return t;
        }

        /** Writes {@code line} and a newline, as UTF-8. */
        void send(String line) throws IOException {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        }

        /** Opens the session: {@code initialize} (id 0) answered, then {@code notifications/initialized}. */
        JsonRpcMessage initialize() throws IOException, InterruptedException {
            send("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"quarkus-it\",\"version\":\"1\"}}}");
            JsonRpcMessage answer = next();
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            return answer;
        }

        /** The next line of stdout, as it came (without its newline). */
        byte[] nextLine() throws InterruptedException {
            byte[] line = lines.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new AssertionError("no line on stdout within " + PATIENCE + "\nstderr:\n" + stderr());
            }
            return line;
        }

        /** The next line of stdout, decoded as JSON-RPC; fails when it is not. */
        JsonRpcMessage next() throws InterruptedException {
            byte[] line = nextLine();
            if (codec.decode(line, 0, line.length) instanceof DecodeResult.Decoded d) {
                return d.message();
            }
            throw new AssertionError("not JSON-RPC on stdout: " + new String(line, StandardCharsets.UTF_8));
        }

        /** Closes stdin: end of input. */
        void closeInput() throws IOException {
            stdin.close();
        }

        /** Waits for the exit, then for the last of stdout and stderr; fails when it does not come in time. */
        int awaitExit() throws InterruptedException {
            if (!process.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the application did not exit within " + PATIENCE + "\nstderr:\n" + stderr());
            }
            outReader.join(PATIENCE.toMillis());
            errReader.join(PATIENCE.toMillis());
            return process.exitValue();
        }

        /** Lines of stdout not yet taken. */
        List<byte[]> remainingLines() {
            List<byte[]> rest = new ArrayList<>();
            lines.drainTo(rest);
            return rest;
        }

        /** Every byte of stdout so far. */
        byte[] stdout() {
            synchronized (stdout) {
                return stdout.toByteArray();
            }
        }

        String stderr() {
            synchronized (stderr) {
                return stderr.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
