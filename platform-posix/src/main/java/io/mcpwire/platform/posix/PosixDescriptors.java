package io.mcpwire.platform.posix;

import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.posix.PosixLib;
import io.mcpwire.platform.rules.posix.PosixPlatform;

/**
 * The provider for Linux, macOS and FreeBSD through JNA: the POSIX rules shared with the other
 * POSIX provider ({@link PosixPlatform}) over a JNA binding of the C library.
 *
 * <p>Constructing it costs nothing; JNA and the C library load on the first call that needs
 * them ({@link #probe()} or an operation), so a process that never claims never loads JNA.
 */
public final class PosixDescriptors extends PosixPlatform {
    private static final NativeBinding<PosixLib> JNA = NativeBinding.lazy("the C library through JNA", new JnaLoader());

    /** Loads JNA and binds the C library: a class, not a lambda, which would cost a generated class at every start. */
    private static final class JnaLoader implements NativeBinding.Loader<PosixLib> {
        @Override
        public PosixLib load() throws Exception {
            return new PosixLib(JnaCLibrary.load(), PosixLib.constantsHere());
        }
    }

    /** Creates the provider; cheap, loads nothing native. */
    public PosixDescriptors() {
        super(JNA);
    }

    /** The loaded binding (for tests that make their own pipes). */
    static PosixLib binding() throws io.mcpwire.platform.DescriptorException {
        return JNA.get();
    }

    @Override
    public String name() {
        return "posix";
    }

    @Override
    public int priority() {
        return 100;
    }
}
