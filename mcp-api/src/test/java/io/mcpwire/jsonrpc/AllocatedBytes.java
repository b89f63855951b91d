package io.mcpwire.jsonrpc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The bytes the current thread has allocated so far, from HotSpot's per-thread counter: a bound
 * on what one call allocates, exact and unaffected by other threads or the collector. Looked up
 * reflectively so that the API module needs no reads edge to {@code jdk.management}.
 */
final class AllocatedBytes {
    private static final MethodHandle COUNTER = counter();

    private AllocatedBytes() {
    }

    static long now() {
        try {
            return (long) COUNTER.invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("the thread allocation counter failed", e);
        }
    }

    private static MethodHandle counter() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            Class<?> hotspot = Class.forName("com.sun.management.ThreadMXBean");
            return MethodHandles.publicLookup()
                    .findVirtual(hotspot, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class))
                    .bindTo(bean);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
