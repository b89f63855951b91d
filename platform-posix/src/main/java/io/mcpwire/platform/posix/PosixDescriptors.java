package io.mcpwire.platform.posix;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;

/** The posix provider; a placeholder that reports itself unsupported until it is built. */
public final class PosixDescriptors implements PlatformDescriptors {
    private static final String CAUSE = "the posix provider is not built yet";

    /** Creates the provider; cheap, loads nothing native. */
    public PosixDescriptors() {
    }

    @Override public String name() { return "posix"; }
    @Override public boolean isSupported() { return false; }
    @Override public String unavailabilityCause() { return CAUSE; }
    @Override public int priority() { return 100; }
    @Override public boolean jvmStreamsFollowDescriptors() { return true; }

    private static DescriptorException unsupported(String op, int fd) {
        return new DescriptorException(op, fd, 0, CAUSE);
    }

    @Override public int duplicateAboveStandard(int fd) throws DescriptorException { throw unsupported("duplicateAboveStandard", fd); }
    @Override public int duplicate(int fd) throws DescriptorException { throw unsupported("duplicate", fd); }
    @Override public void duplicateOnto(int source, int target) throws DescriptorException { throw unsupported("duplicateOnto", target); }
    @Override public int openNullDevice(Access access) throws DescriptorException { throw unsupported("openNullDevice", -1); }
    @Override public void close(int fd) throws DescriptorException { throw unsupported("close", fd); }
    @Override public void rebindStandardHandle(int fd) throws DescriptorException { throw unsupported("rebindStandardHandle", fd); }
    @Override public FileIdentity identity(int fd) throws DescriptorException { throw unsupported("identity", fd); }
    @Override public DescriptorStream open(int fd) throws DescriptorException { throw unsupported("open", fd); }
}
