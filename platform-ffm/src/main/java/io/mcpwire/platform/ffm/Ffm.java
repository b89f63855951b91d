package io.mcpwire.platform.ffm;

import java.lang.reflect.InvocationTargetException;

/**
 * What the FFM module's two providers share: on Linux, macOS and FreeBSD {@link FfmPosix} (the POSIX
 * rules shared with the JNA provider), on Windows {@link FfmWindows} (the Windows rules shared with
 * the JNA provider), each over a binding made with {@code java.lang.foreign}. Both are named
 * {@value #NAME} and rank above the JNA providers, so adding the module is enough to be served by
 * it on JDK 22 and newer; the one that is not for this system says it cannot run.
 *
 * <p>This code is compiled for Java 17 and loads a binding (compiled for Java 22) only on JDK 22
 * or newer: on older JDKs the providers are loaded by the service loader like any other and say
 * they cannot run, so they are never chosen and nothing warns. Constructing them loads nothing native.
 */
final class Ffm {
    /** The providers' name. */
    static final String NAME = "ffm";
    /** Above the JNA providers' 100. */
    static final int PRIORITY = 200;
    /** The first JDK on which the foreign function API is final. */
    static final int FIRST_JDK = 22;

    private Ffm() {
    }

    /** Throws unless this JDK has the final foreign function API. */
    static void requireJdk() {
        int jdk = Runtime.version().feature();
        if (jdk < FIRST_JDK) {
            throw new UnsupportedOperationException("needs JDK " + FIRST_JDK + " or newer (this is JDK " + jdk + ")");
        }
    }

    /** Loads the Java 22 binding class {@code name} and calls its {@code load()}; throws what that threw. */
    static Object loadBinding(String name) throws Exception {
        Class<?> binding = Class.forName(name, true, Ffm.class.getClassLoader());
        try {
            return binding.getMethod("load").invoke(null);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : new IllegalStateException(e.getCause());
        }
    }
}
