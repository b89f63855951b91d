package io.mcpwire.stdio.engine;

import static io.mcpwire.platform.PlatformDescriptors.STDERR;
import static io.mcpwire.platform.PlatformDescriptors.STDIN;
import static io.mcpwire.platform.PlatformDescriptors.STDOUT;

import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.stdio.ClaimState;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * The standard streams served in place, when no platform provider can run: the claim still
 * registers them (a second claim is refused) and serves fd 0 and fd 1 through the JVM's own
 * descriptors, but isolates nothing, and a read blocked on fd 0 cannot be woken (the
 * transport's threads are daemons, so one left blocked never keeps the JVM alive).
 */
public final class InPlaceClaim implements HeldClaim {
    private final long wakeTimeoutMillis;
    private final ChildProcesses children;
    private final Registrations registrations = new Registrations(DescriptorTable.PROCESS, "none");
    /** The served standard streams. */
    private final ServedStreams endpoints = new ServedStreams();
    private boolean released;

    /**
     * Registers and serves what {@code request} asks for.
     *
     * @throws io.mcpwire.stdio.ClaimRefusedException when another claim holds a stream; nothing changes
     */
    public InPlaceClaim(ClaimRequest request) {
        this.wakeTimeoutMillis = request.wakeTimeoutMillis();
        this.children = request.children();
        try {
            if (request.input()) {
                registrations.register(STDIN);
                endpoints.put(STDIN, new Endpoint("stdin (in place)", () -> JvmStreams.standardStream(STDIN), false));
            }
            if (request.output()) {
                registrations.register(STDOUT);
                registrations.register(STDERR); // as an isolating claim would: fd 2 goes with fd 1
                endpoints.put(STDOUT, new Endpoint("stdout (in place)", () -> JvmStreams.standardStream(STDOUT), false));
            }
        } catch (RuntimeException e) {
            registrations.releaseWhere(fd -> true);
            throw e;
        }
        children.endAtShutdown(DescriptorTable.PROCESS);
    }

    @Override
    public InputStream input() {
        return endpoints.input();
    }

    @Override
    public OutputStream output() {
        return endpoints.output();
    }

    /** Fails later calls, but a read already blocked on fd 0 stays blocked. */
    @Override
    public boolean wake() {
        endpoints.wake();
        return false;
    }

    @Override
    public synchronized Optional<ClaimState> state(int fd) {
        return endpoints.fds().contains(fd) ? Optional.of(released ? ClaimState.RELEASED : ClaimState.IN_PLACE) : Optional.empty();
    }

    @Override
    public boolean isIsolated() {
        return false; // every claimed stream is served in place
    }

    @Override
    public boolean stderrIsWire() {
        return false; // without a provider, fd 2 cannot be examined
    }

    @Override
    public String platformName() {
        return "none";
    }

    @Override
    public Optional<ProcessExits> processExits() {
        return Optional.empty();
    }

    @Override
    public synchronized boolean isReleased() {
        return released;
    }

    @Override
    public synchronized void release() {
        if (released) {
            return;
        }
        children.end(DescriptorTable.PROCESS);
        endpoints.fds().forEach(fd -> endpoints.shutAndAwaitIdle(fd, wakeTimeoutMillis));
        registrations.releaseWhere(fd -> true);
        released = true;
    }

    @Override
    public String toString() {
        return "StdioClaim[none" + endpoints.fds().stream().map(fd -> ", fd " + fd + " " + state(fd).orElseThrow())
                .reduce("", String::concat) + "]";
    }
}
