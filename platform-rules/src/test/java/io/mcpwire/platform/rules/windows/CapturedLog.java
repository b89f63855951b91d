package io.mcpwire.platform.rules.windows;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * What the Windows rules log ({@code io.mcpwire.platform.windows}) while a test runs, kept off
 * stderr. The JDK's {@code System.Logger} writes through {@code java.util.logging} here; this
 * module does not read {@code java.logging}, so its classes are reached by reflection, which needs
 * no reads edge.
 */
final class CapturedLog implements AutoCloseable {
    private final Object logger;
    private final Object handler;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Method flush;

    private CapturedLog() throws ReflectiveOperationException {
        Class<?> loggerClass = Class.forName("java.util.logging.Logger");
        Class<?> handlerClass = Class.forName("java.util.logging.Handler");
        Class<?> formatterClass = Class.forName("java.util.logging.Formatter");
        Class<?> streamHandler = Class.forName("java.util.logging.StreamHandler");
        logger = loggerClass.getMethod("getLogger", String.class).invoke(null, "io.mcpwire.platform.windows");
        Object formatter = Class.forName("java.util.logging.SimpleFormatter").getConstructor().newInstance();
        handler = streamHandler.getConstructor(OutputStream.class, formatterClass).newInstance(out, formatter);
        flush = streamHandler.getMethod("flush");
        loggerClass.getMethod("addHandler", handlerClass).invoke(logger, handler);
        loggerClass.getMethod("setUseParentHandlers", boolean.class).invoke(logger, false);
    }

    /** Captures from now until closed. */
    static CapturedLog start() {
        try {
            return new CapturedLog();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("java.util.logging is not reachable: " + e, e);
        }
    }

    /** What was logged so far, formatted. */
    String text() {
        try {
            flush.invoke(handler);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws ReflectiveOperationException {
        Class<?> loggerClass = logger.getClass();
        loggerClass.getMethod("removeHandler", Class.forName("java.util.logging.Handler")).invoke(logger, handler);
        loggerClass.getMethod("setUseParentHandlers", boolean.class).invoke(logger, true);
    }
}
