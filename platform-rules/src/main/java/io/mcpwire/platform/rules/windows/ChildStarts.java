package io.mcpwire.platform.rules.windows;

/**
 * The monitor that the JDK's Windows {@code ProcessImpl.create} ({@code private static synchronized
 * native}) takes around each {@code CreateProcess}: the class {@code java.lang.ProcessImpl} itself.
 * Looking a class up by name needs no access to its members, and synchronising on a {@code Class}
 * needs none. Where the class is missing (another JDK's layout) a monitor of this class's own
 * stands in, which serialises nothing but the provider's own calls.
 */
final class ChildStarts {
    static final Object MONITOR = lookUp();

    private ChildStarts() {
    }

    private static Object lookUp() {
        try {
            return Class.forName("java.lang.ProcessImpl", false, null);
        } catch (ClassNotFoundException | LinkageError e) {
            return new Object();
        }
    }
}
