package io.mcpwire.platform.ffm;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardOrigin;
import java.lang.reflect.InvocationTargetException;
import java.util.Locale;

/**
 * The provider on the JDK's foreign function API, without JNA: on Linux, macOS and FreeBSD the
 * POSIX rules shared with the JNA provider, on Windows the Windows rules shared with the JNA
 * provider, each over a binding made with {@code java.lang.foreign}. It ranks above the JNA
 * providers, so adding it is enough to be served by it on JDK 22 and newer;
 * {@code -Dmcpwire.platform=ffm|posix|windows} still chooses explicitly.
 *
 * <p>This class is compiled for Java 17 and loads a binding (compiled for Java 22) only on JDK 22
 * or newer: on older JDKs the provider is loaded by the service loader like any other and says it
 * cannot run, so it is never chosen and nothing warns. Constructing it loads nothing native.
 */
public final class FfmDescriptors implements PlatformDescriptors {
    /** The provider's name. */
    static final String NAME = "ffm";
    /** Above the JNA providers' 100. */
    static final int PRIORITY = 200;
    /** The first JDK on which the foreign function API is final. */
    static final int FIRST_JDK = 22;

    /** The rules of this system, over the foreign binding. */
    private final PlatformDescriptors rules;

    /** Creates the provider; cheap, loads nothing native. */
    public FfmDescriptors() {
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        this.rules = windows ? new FfmWindows() : new FfmPosix();
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
        Class<?> binding = Class.forName(name, true, FfmDescriptors.class.getClassLoader());
        try {
            return binding.getMethod("load").invoke(null);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : new IllegalStateException(e.getCause());
        }
    }

    @Override public String name() { return NAME; }
    @Override public int priority() { return PRIORITY; }
    @Override public boolean isSupported() { return rules.isSupported(); }
    @Override public String unavailabilityCause() { return rules.unavailabilityCause(); }
    @Override public boolean jvmStreamsFollowDescriptors() { return rules.jvmStreamsFollowDescriptors(); }
    @Override public DescriptorTable descriptorTable() { return rules.descriptorTable(); }
    @Override public int duplicateAboveStandard(int fd) throws DescriptorException { return rules.duplicateAboveStandard(fd); }
    @Override public int duplicate(int fd) throws DescriptorException { return rules.duplicate(fd); }
    @Override public void duplicateOnto(int source, int target) throws DescriptorException { rules.duplicateOnto(source, target); }
    @Override public int openNullDevice(Access access) throws DescriptorException { return rules.openNullDevice(access); }
    @Override public int openAppend(String path) throws DescriptorException { return rules.openAppend(path); }
    @Override public StandardOrigin standardOrigin(int fd) throws DescriptorException { return rules.standardOrigin(fd); }
    @Override public void close(int fd) throws DescriptorException { rules.close(fd); }
    @Override public void rebindStandardHandle(int fd) throws DescriptorException { rules.rebindStandardHandle(fd); }
    @Override public String describe(int fd) { return rules.describe(fd); }
    @Override public FileIdentity identity(int fd) throws DescriptorException { return rules.identity(fd); }
    @Override public boolean sameFile(int a, int b) throws DescriptorException { return rules.sameFile(a, b); }
    @Override public DescriptorStream open(int fd) throws DescriptorException { return rules.open(fd); }
}
