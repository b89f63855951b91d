package io.mcpwire.check;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/** A server under check as a child process; its stderr is kept as it comes. */
final class ServerProcess implements CheckedServer {
    private final List<String> command;
    private final Process process;
    private final ServerWire wire;
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread stderrReader;
    private final Descendants descendants;

    private ServerProcess(List<String> command, Process process) {
        this.command = List.copyOf(command);
        this.process = process;
        this.wire = new ServerWire(process.getOutputStream(), process.getInputStream());
        this.stderrReader = new Thread(() -> copy(process.getErrorStream()), "check-stderr");
        stderrReader.setDaemon(true);
        stderrReader.start();
        this.descendants = Descendants.of(process);
    }

    static ServerProcess start(List<String> command) throws IOException {
        return new ServerProcess(command, new ProcessBuilder(command).start());
    }

    @Override
    public List<String> command() {
        return command;
    }

    @Override
    public ServerWire wire() {
        return wire;
    }

    @Override
    public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            wire.awaitEndOfOutput(Duration.ofSeconds(2)); // the last lines it wrote
            stderrReader.join(2_000);
            return OptionalInt.of(process.exitValue());
        }
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
        return OptionalInt.empty();
    }

    @Override
    public OptionalLong residentBytes() {
        return ResidentMemory.of(process.pid());
    }

    @Override
    public String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public List<String> leftRunning() {
        return descendants.leftRunning();
    }

    @Override
    public void kill() {
        process.destroyForcibly();
    }

    private void copy(InputStream err) {
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = err.read(buffer)) > 0) {
                synchronized (stderr) {
                    stderr.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            // the server closed its stderr
        }
    }
}
