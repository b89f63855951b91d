package io.mcpwire.platform.test.harness;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Waits until a thread is inside a given native call, so that a test of a wake-up knows the call
 * has really blocked, instead of sleeping and hoping it has. A thread whose innermost frame is the
 * native method {@code poll} (or {@code ReadFile}, ...) is in the kernel's wait, not before it.
 */
public final class BlockedThreads {
    private static final long CHECK_NANOS = Duration.ofMillis(1).toNanos();

    private BlockedThreads() {
    }

    /** A call expected to block until woken. */
    @FunctionalInterface
    public interface BlockingCall {
        /** Makes the call. */
        void run() throws Exception;
    }

    /**
     * Runs {@code call} on a daemon thread of its own and returns the thread; {@code outcome}
     * receives what the call threw, or null when it returned, so that the test judges it.
     */
    public static Thread start(BlockingCall call, CompletableFuture<Throwable> outcome) {
        Thread t = new Thread(() -> {
            try {
                call.run();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        }, "blocked-call");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Returns once {@code thread}'s innermost frame is the native method {@code method} (for
     * example {@code "poll"}).
     *
     * @throws AssertionError when it is not there within {@code timeout}, with the thread's stack
     */
    public static void awaitInNativeCall(Thread thread, String method, Duration timeout) {
        await(thread, "blocked in native " + method,
                stack -> stack.length > 0 && stack[0].isNativeMethod() && stack[0].getMethodName().equals(method), timeout);
    }

    /**
     * Returns once {@code thread} is in the C call that {@code className.method} makes: its
     * innermost frame is either that method, as for a call made through the foreign function API,
     * whose downcall stub is hidden (then in the kernel's wait, or about to be; a provider's wake-up
     * must work for both), or a native method called from it, as for a JNA {@code Function}'s
     * {@code Native.invokeInt} (then in the native dispatcher, or the kernel's wait).
     *
     * @throws AssertionError when it is not there within {@code timeout}, with the thread's stack
     */
    public static void awaitInCall(Thread thread, String className, String method, Duration timeout) {
        awaitInCall(thread, className, Set.of(method), timeout);
    }

    /** Like {@link #awaitInCall(Thread, String, String, Duration)}, with any of {@code methods} making the call. */
    public static void awaitInCall(Thread thread, String className, Set<String> methods, Duration timeout) {
        await(thread, "in " + className + "." + methods, stack -> stack.length > 0
                && (stack[0].isNativeMethod() || stack[0].getClassName().equals(className))
                && innermostOf(stack, className).map(f -> methods.contains(f.getMethodName())).orElse(false), timeout);
    }

    private static Optional<StackTraceElement> innermostOf(StackTraceElement[] stack, String className) {
        return Arrays.stream(stack).filter(f -> f.getClassName().equals(className)).findFirst();
    }

    /**
     * Returns once {@code thread} waits (parked, or in {@code Object.wait}) with a frame of
     * {@code className} on its stack: a call blocked in a Java wait, such as the fake's pipes.
     *
     * @throws AssertionError when it is not there within {@code timeout}, with the thread's stack
     */
    public static void awaitWaitingIn(Thread thread, String className, Duration timeout) {
        await(thread, "waiting in " + className, stack -> waiting(thread)
                && Arrays.stream(stack).anyMatch(f -> f.getClassName().equals(className)), timeout);
    }

    /** Polls {@code thread}'s stack (its state, not the clock, is what is waited for) until {@code there} holds. */
    private static void await(Thread thread, String where, Predicate<StackTraceElement[]> there, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        StackTraceElement[] stack = thread.getStackTrace();
        while (!there.test(stack)) {
            if (System.nanoTime() > deadline || !thread.isAlive()) {
                throw new AssertionError(thread.getName() + " is not " + where + " (state " + thread.getState()
                        + "); its stack:\n  " + Arrays.stream(stack).map(String::valueOf).collect(Collectors.joining("\n  ")));
            }
            LockSupport.parkNanos(CHECK_NANOS);
            stack = thread.getStackTrace();
        }
    }

    private static boolean waiting(Thread thread) {
        Thread.State s = thread.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }
}
