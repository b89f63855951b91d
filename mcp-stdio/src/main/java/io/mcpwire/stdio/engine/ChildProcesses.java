package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.stdio.Children;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The processes the server started, ended when it stops serving ({@link Children#END}): every
 * descendant of this JVM that still runs, taken all at once before any is ended (an ended parent's
 * children would be reparented away and lost from view), asked to end, and ended forcibly once the
 * grace has passed; a descendant started meanwhile (by a child that started another as it ended)
 * is asked to end too, within what is left of the grace. A descendant that detached itself into a session of its own is left alone where the
 * session can be read (Linux's {@code /proc}); one that was reparented away is no longer a
 * descendant.
 *
 * <p>They are ended when the JVM shuts down while the claim is held, too (SIGTERM,
 * {@code System.exit}; {@link #endAtShutdown}), at once, beside the transport's drain: a tool that
 * waits for its child then answers, and a claim whose owner puts it back only later (one kept for
 * a framework), or never before the JVM halts, still ends what the server started.
 *
 * <p>Threads: the claim's owner registers the hook; the release, the hook, or both at once, end
 * the processes; {@link #hook} is guarded by this object's monitor.
 */
public final class ChildProcesses {
    private static final long POLL_MILLIS = 5;

    private final Children policy;
    private final Duration grace;
    /** The shutdown hook that ends them, while one is registered. */
    private Optional<Thread> hook = Optional.empty();

    /** The processes of {@code policy}, given {@code grace} before a forcible end. */
    public ChildProcesses(Children policy, Duration grace) {
        this.policy = policy;
        this.grace = grace;
    }

    /**
     * Ties the processes started from now on to this one's life where {@code platform} can
     * (Windows: a job object), so that they end even when this process is killed and {@link #end}
     * never runs; a failure is logged and changes nothing else. Never throws.
     */
    public void tieTo(PlatformDescriptors platform) {
        if (policy == Children.LEAVE) {
            return;
        }
        try {
            if (platform.tieChildrenToProcess()) {
                LOG.log(Level.DEBUG, "the processes the server starts end with it, killed included ({0})", platform.name());
            }
        } catch (DescriptorException | RuntimeException e) {
            LOG.log(Level.WARNING, "the processes the server starts could not be tied to its life; they are ended when it stops serving,"
                    + " but not if it is killed: {0}", e.getMessage());
        }
    }

    /**
     * Ends them also when the JVM shuts down before {@link #end} has run, as the policy says and
     * when {@code table} is this process's own: a shutdown hook, removed by {@link #end}. Never throws.
     */
    public synchronized void endAtShutdown(DescriptorTable table) {
        if (policy == Children.LEAVE || table != DescriptorTable.PROCESS || hook.isPresent()) {
            return;
        }
        try {
            Thread atShutdown = new Thread(new AtShutdown(table), "mcpwire-children-at-shutdown");
            Runtime.getRuntime().addShutdownHook(atShutdown);
            hook = Optional.of(atShutdown);
        } catch (IllegalStateException e) {
            // the JVM is shutting down already: the release ends them
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the processes the server starts cannot be ended at the JVM''s shutdown ({0});"
                    + " they are ended when the claim is released", e.toString());
        }
    }

    /** The shutdown hook's work: a named class, not a lambda, whose first call would generate one at every start. */
    private final class AtShutdown implements Runnable {
        private final DescriptorTable table;

        AtShutdown(DescriptorTable table) {
            this.table = table;
        }

        @Override
        public void run() {
            end(table);
        }
    }

    /**
     * Ends them, as the policy says, when {@code table} is this process's own; a fake's table stands
     * for a process of its own, whose children are not this JVM's. Returns once each has ended or
     * been ended forcibly. Never throws.
     */
    public void end(DescriptorTable table) {
        try {
            if (policy == Children.LEAVE || table != DescriptorTable.PROCESS) {
                return;
            }
            List<ProcessHandle> started = new ArrayList<>(descendants());
            if (started.isEmpty()) {
                return;
            }
            long deadline = System.nanoTime() + grace.toNanos();
            started.forEach(ProcessHandle::destroy);
            awaitExit(started, deadline);
            // Started meanwhile by a process that was ending: asked to end too, within what is left of the grace.
            List<ProcessHandle> meanwhile = new ArrayList<>();
            for (ProcessHandle p : descendants()) {
                if (!started.contains(p) && running(p)) {
                    meanwhile.add(p);
                }
            }
            meanwhile.forEach(ProcessHandle::destroy);
            awaitExit(meanwhile, deadline);
            started.addAll(meanwhile);
            List<ProcessHandle> stubborn = new ArrayList<>();
            for (ProcessHandle p : started) {
                if (running(p)) {
                    stubborn.add(p);
                }
            }
            stubborn.forEach(ProcessHandle::destroyForcibly);
            LOG.log(Level.INFO, "ended {0} process(es) the server started; {1} of them forcibly, once their grace of {2} ms had passed",
                    started.size(), stubborn.size(), grace.toMillis());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "ending the processes the server started failed", e);
        } finally {
            removeHook(); // only now: a JVM that shuts down meanwhile still ends them through the hook
        }
    }

    /** Removes the shutdown hook, unless it is what runs this: the processes have been ended. */
    private synchronized void removeHook() {
        if (hook.isPresent() && hook.get() != Thread.currentThread()) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook.get());
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs too, and finds little or nothing left to end
            }
        }
        hook = Optional.empty();
    }

    /** This JVM's descendants now, in its session where the session can be read. */
    private static List<ProcessHandle> descendants() {
        Optional<String> session = stat(ProcessHandle.current().pid()).map(Stat::session);
        return ProcessHandle.current().descendants()
                .filter(p -> session.isEmpty() || stat(p.pid()).map(Stat::session).equals(session)).toList();
    }

    /**
     * Waits until each has ended or {@code deadline} has passed. Polled every few milliseconds: the
     * JDK waits for a process that is not this JVM's own child (a grandchild) by polling too, at
     * 300 ms and more, too coarse for a grace of 2 s.
     */
    private static void awaitExit(List<ProcessHandle> started, long deadline) {
        try {
            while (started.stream().anyMatch(ChildProcesses::running) && System.nanoTime() < deadline) {
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether {@code p} still runs: alive, and not a zombie (an ended process not yet reaped, which
     * the JDK counts as alive; a grandchild reparented to an init that does not reap stays one).
     */
    private static boolean running(ProcessHandle p) {
        return p.isAlive() && !stat(p.pid()).map(s -> s.state().equals("Z")).orElse(false);
    }

    /** What {@code /proc/PID/stat} says of a process: its state and its session. */
    private record Stat(String state, String session) {
    }

    /**
     * The state and session of process {@code pid}, from {@code /proc/PID/stat} (the third and
     * sixth fields, after the command's closing parenthesis); empty where there is no such file
     * (macOS, Windows) or it cannot be read.
     */
    private static Optional<Stat> stat(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(new Stat(after[0], after[3]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
