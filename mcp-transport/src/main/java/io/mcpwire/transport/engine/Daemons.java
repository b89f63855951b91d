package io.mcpwire.transport.engine;

/** The transport's threads: daemons, so that a transport never keeps the JVM alive. */
public final class Daemons {
    private Daemons() {
    }

    /** A daemon thread, not started. */
    public static Thread thread(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    /** Waits up to {@code millis} for {@code t} to end; not for the calling thread itself, nor for none. */
    public static void join(Thread t, long millis) {
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
