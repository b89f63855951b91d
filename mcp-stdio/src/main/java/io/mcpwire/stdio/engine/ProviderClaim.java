package io.mcpwire.stdio.engine;

import static io.mcpwire.platform.PlatformDescriptors.STDERR;
import static io.mcpwire.platform.PlatformDescriptors.STDIN;
import static io.mcpwire.platform.PlatformDescriptors.STDOUT;
import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.stdio.ClaimState;
import io.mcpwire.stdio.Isolation;
import io.mcpwire.stdio.IsolationUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The claimed descriptors, through a platform provider: each claimed stream is a
 * {@link StreamClaim} (diverted, rolled forward, in place or absent) served through an
 * {@link Endpoint}, and the JVM's own streams are swapped where they do not follow the
 * descriptors. See {@code docs/claim.md}.
 */
public final class ProviderClaim implements HeldClaim {
    private final PlatformDescriptors platform;
    private final long wakeTimeoutMillis;
    private final ChildProcesses children;
    private final Registrations registrations;
    /** By fd, in order: 0, 1, and 2 when it is the wire or guarded. */
    private final Map<Integer, StreamClaim> claims = new TreeMap<>();
    /** Where stray output goes: fd 1's and fd 2's diversions, what the claim does with fd 2, and the drain. */
    private StrayOutputRoute stray;
    /** What the transport reads and writes, for fd 0 and fd 1. */
    private final ServedStreams endpoints = new ServedStreams();
    private JvmStreams swap;
    private boolean released;

    /**
     * Claims what {@code request} asks for.
     *
     * @throws io.mcpwire.stdio.ClaimRefusedException when another claim holds a stream; nothing changes
     * @throws IsolationUnavailableException when isolation is required and a stream is served in
     *                                       place; what was taken is put back
     */
    public ProviderClaim(PlatformDescriptors platform, ClaimRequest request, Isolation isolation) {
        this.platform = platform;
        this.wakeTimeoutMillis = request.wakeTimeoutMillis();
        this.children = request.children();
        this.registrations = new Registrations(platform.descriptorTable(), platform.name());
        this.swap = JvmStreams.none(platform);
        this.stray = StrayOutputRoute.untouched(platform, request.stray());
        try {
            engage(request);
            if (isolation == Isolation.REQUIRED && !isIsolated()) {
                throw new IsolationUnavailableException(reasons());
            }
        } catch (RuntimeException | Error e) {
            abandon(); // a claim that fails half-way releases what it took
            throw e;
        }
        children.endAtShutdown(platform.descriptorTable());
    }

    private void engage(ClaimRequest request) {
        // One owner: register every descriptor before touching any; a refusal changes nothing.
        if (request.input()) {
            registrations.register(STDIN);
        }
        if (request.output()) {
            registrations.register(STDOUT);
            registrations.register(STDERR); // fd 2 goes with fd 1: it may be the wire too
        }
        // Before anything moves: the tie's handle (Windows) must not take a value that a move frees,
        // such as one the JVM captured at start-up and hands to an inheritIO() child.
        children.tieTo(platform);
        // Every question about the descriptors is asked before any of them moves.
        Diversions diversions = new Diversions(platform);
        if (request.input()) {
            claims.put(STDIN, new StreamClaim(platform, STDIN, diversions));
            diversions.given(STDIN);
        }
        if (request.output()) {
            if (diversions.given(STDOUT)) {
                stray = StrayOutputRoute.examine(platform, request.stray(), request.stderr(), diversions.given(STDERR));
            }
            claims.put(STDOUT, new StreamClaim(platform, STDOUT, stray));
            if (stray.role() != StrayOutputRoute.Role.LEFT_ALONE) {
                claims.put(STDERR, new StreamClaim(platform, STDERR, stray)); // the wire (the fd 2 rule), or guarded
            }
        }
        // Every private duplicate before any diversion: a diversion frees the descriptor's old
        // handle, and on Windows a duplicate made after it could take that value, which the JVM
        // still holds for its own stream and hands to an inheritIO() child.
        List<StreamClaim> duplicated = new ArrayList<>();
        for (StreamClaim claim : claims.values()) {
            if (!diversions.given(claim.fd())) {
                claim.absent(diversions.absence(claim.fd()).orElseThrow());
            } else if (claim.duplicate()) {
                duplicated.add(claim);
            }
        }
        for (StreamClaim claim : duplicated) {
            claim.divert();
        }
        stray.diversionsOpen();
        Set<Integer> isolated = new TreeSet<>();
        for (StreamClaim claim : claims.values()) {
            if (claim.isolated()) {
                isolated.add(claim.fd());
            }
        }
        swap = JvmStreams.swapIfNeeded(platform, isolated);
        for (StreamClaim claim : claims.values()) {
            if (claim.fd() != STDERR) {
                endpoints.put(claim.fd(), endpoint(claim));
            }
        }
    }

    private Endpoint endpoint(StreamClaim claim) {
        int fd = claim.fd();
        String what = fd == STDIN ? "stdin" : "stdout";
        if (claim.state() == ClaimState.ABSENT) {
            return new Endpoint(what + " (absent)", new OpenAbsent(fd, claim.absence()), true);
        }
        int serving = claim.servingDescriptor();
        String name = what + (serving != fd ? " (private fd " + serving + ")" : " (in place)");
        return new Endpoint(name, new OpenServing(platform, serving), true);
    }

    /** Opens the stream of the descriptor that serves: a record, not a lambda, which would cost a generated class on the first claim. */
    private record OpenServing(PlatformDescriptors platform, int serving) implements Endpoint.Opener {
        @Override
        public DescriptorStream open() throws IOException {
            return platform.open(serving);
        }
    }

    /** Opens the stand-in of an absent stream, which says why it is absent. */
    private record OpenAbsent(int fd, Diversions.Absence why) implements Endpoint.Opener {
        @Override
        public DescriptorStream open() {
            return new AbsentStream(fd, why);
        }
    }

    private String reasons() {
        return claims.values().stream()
                .filter(c -> c.fd() != STDERR && !isolatedOrAbsent(c))
                .map(StreamClaim::reason)
                .collect(Collectors.joining("; "));
    }

    private static boolean isolatedOrAbsent(StreamClaim c) {
        return c.isolated() || c.state() == ClaimState.ABSENT;
    }

    @Override
    public InputStream input() {
        return endpoints.input();
    }

    @Override
    public OutputStream output() {
        return endpoints.output();
    }

    @Override
    public Optional<String> outputAbsence() {
        StreamClaim out = claims.get(STDOUT);
        return out != null && out.state() == ClaimState.ABSENT ? Optional.of(out.reason()) : Optional.empty();
    }

    @Override
    public boolean wake() {
        endpoints.wake();
        return true;
    }

    @Override
    public Optional<ClaimState> state(int fd) {
        StreamClaim claim = claims.get(fd);
        return claim == null ? Optional.empty() : Optional.of(claim.state());
    }

    @Override
    public boolean isIsolated() {
        for (StreamClaim c : claims.values()) {
            if (c.fd() != STDERR && !isolatedOrAbsent(c)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean stderrIsWire() {
        return stray.role() == StrayOutputRoute.Role.WIRE;
    }

    @Override
    public String platformName() {
        return platform.name();
    }

    @Override
    public Optional<ProcessExits> processExits() {
        try {
            return platform.processExits();
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty(); // a provider built before the facet, or one that fails to say: poll
        }
    }

    @Override
    public synchronized boolean isReleased() {
        return released;
    }

    /**
     * Wakes any thread blocked on the wire, waits for it to leave, and puts the descriptors back.
     * If a restore fails, the stream stays claimed ({@link ClaimState#STUCK}) so that no later claim
     * is handed the diversion, and releasing again retries it.
     */
    @Override
    public synchronized void release() {
        if (released) {
            return;
        }
        children.end(platform.descriptorTable());
        try {
            released = restore();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "releasing the stdio claim failed; closing it again retries", e);
        }
    }

    /** Puts back whatever a half-done claim took; what could not be put back stays registered. */
    private void abandon() {
        try {
            restore();
        } finally {
            released = true;
        }
    }

    /**
     * Wakes the threads on the wire and waits for them to leave (no descriptor is recycled under a reader), drains the JVM's
     * swapped streams, restores each stream (fd 2, 1, 0), reattaches the JVM's streams, lets the
     * stray-output drain write what it holds (a bounded wait), and deregisters every descriptor
     * that is free again (restore, then deregister); true when all are.
     */
    private boolean restore() {
        boolean inIdle = shutEndpoint(STDIN);
        boolean outIdle = shutEndpoint(STDOUT);
        swap.drain();
        boolean done = releaseStderr();
        stray.reportDropped();
        done &= release(STDOUT, outIdle);
        done &= release(STDIN, inIdle);
        swap.reattach();
        if (done) {
            stray.finishDrain();
        }
        // fd 2 was registered with fd 1; a descriptor whose restore failed (STUCK) or kept diverted (KEPT_DIVERTED) stays registered.
        registrations.releaseWhere(fd -> {
            StreamClaim c = claims.get(fd);
            return c == null || c.state() == ClaimState.RELEASED;
        });
        claims.values().stream().filter(c -> c.state() == ClaimState.STUCK || c.state() == ClaimState.KEPT_DIVERTED)
                .forEach(c -> registrations.markHeld(c.fd(), c.state()));
        return done;
    }

    /**
     * A guarded fd 2 is put back only once stderr has taken what the drain holds: put back onto an
     * unread pipe, the next write to it (the server's last log line) would block the process for
     * good. So it stays on the drain, claimed, and closing the claim again retries.
     */
    private boolean releaseStderr() {
        if (stray.mustStayOnDrain()) {
            return !claims.get(STDERR).keepDiverted("stderr is not being read: fd 2 stays on the stray-output drain, "
                    + "so that writing it cannot block the process; closing the claim again retries");
        }
        return release(STDERR, true);
    }

    private boolean release(int fd, boolean mayClosePrivate) {
        StreamClaim c = claims.get(fd);
        return c == null || c.release(mayClosePrivate);
    }

    private boolean shutEndpoint(int fd) {
        return endpoints.shutAndAwaitIdle(fd, wakeTimeoutMillis);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("StdioClaim[").append(platform.name());
        for (StreamClaim c : claims.values()) {
            s.append(", ").append(c);
        }
        return s.append(']').toString();
    }
}
