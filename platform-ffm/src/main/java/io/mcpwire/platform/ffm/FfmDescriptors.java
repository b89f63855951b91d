package io.mcpwire.platform.ffm;

import io.mcpwire.platform.support.NativeBinding;
import io.mcpwire.platform.support.posix.CLibrary;
import io.mcpwire.platform.support.posix.PosixConstants;
import io.mcpwire.platform.support.posix.PosixLib;
import io.mcpwire.platform.support.posix.PosixPlatform;
import java.lang.reflect.InvocationTargetException;

/**
 * The provider for Linux, macOS and FreeBSD on the JDK's foreign function API: the POSIX rules
 * shared with the JNA provider ({@link PosixPlatform}) over a binding made with
 * {@code java.lang.foreign}. It ranks above the JNA provider, so adding it is enough to be served
 * by it on JDK 22 and newer; {@code -Dmcpwire.platform=ffm|posix} still chooses explicitly.
 *
 * <p>This class is compiled for Java 17 and loads the binding (compiled for Java 22) only on JDK
 * 22 or newer: on older JDKs the provider is loaded by the service loader like any other and says
 * it cannot run, so it is never chosen and nothing warns.
 */
public final class FfmDescriptors extends PosixPlatform {
    /** The first JDK on which the foreign function API is final. */
    static final int FIRST_JDK = 22;

    private static final NativeBinding<PosixLib> FFM = NativeBinding.lazy(
            "the C library through the foreign function API", FfmDescriptors::bind);

    /** Creates the provider; cheap, loads nothing native. */
    public FfmDescriptors() {
        super(FFM);
    }

    private static PosixLib bind() throws Exception {
        int jdk = Runtime.version().feature();
        if (jdk < FIRST_JDK) {
            throw new UnsupportedOperationException("needs JDK " + FIRST_JDK + " or newer (this is JDK " + jdk + ")");
        }
        PosixConstants constants = PosixLib.constantsHere(); // not a POSIX system: say so before touching the linker
        Class<?> binding = Class.forName("io.mcpwire.platform.ffm.ForeignCLibrary", true, FfmDescriptors.class.getClassLoader());
        try {
            return new PosixLib((CLibrary) binding.getMethod("load").invoke(null), constants);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : new IllegalStateException(e.getCause());
        }
    }

    @Override
    public String name() {
        return "ffm";
    }

    /** Above the JNA providers' 100. */
    @Override
    public int priority() {
        return 200;
    }
}
