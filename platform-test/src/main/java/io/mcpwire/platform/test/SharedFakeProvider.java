package io.mcpwire.platform.test;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.platform.StandardOrigin;
import java.util.Optional;

/**
 * The service-loader face of {@link FakeProcess#shared()}, selected by
 * {@code -Dmcpwire.platform=fake}. A class of its own, with a public no-argument constructor, so
 * that it loads the same way from the module path and from the class path.
 */
public final class SharedFakeProvider implements PlatformDescriptors {

    /** Creates the provider; every instance acts on {@link FakeProcess#shared()}. */
    public SharedFakeProvider() {
    }

    private static FakeProcess fake() {
        return FakeProcess.shared();
    }

    @Override public String name() { return "fake"; }
    @Override public int spiVersion() { return SPI_VERSION; }
    @Override public Probe probe() { return Probe.available(); }
    @Override public int priority() { return -100; } // never chosen automatically; see FakeProcess
    @Override public boolean jvmStreamsFollowDescriptors() { return fake().jvmStreamsFollowDescriptors(); }
    @Override public Optional<StandardHandleDuties> standardHandleDuties() { return fake().standardHandleDuties(); }
    @Override public Optional<ProcessExits> processExits() { return fake().processExits(); }
    @Override public DescriptorTable descriptorTable() { return fake().descriptorTable(); }
    @Override public int duplicateAboveStandard(int fd) throws DescriptorException { return fake().duplicateAboveStandard(fd); }
    @Override public int duplicate(int fd) throws DescriptorException { return fake().duplicate(fd); }
    @Override public void duplicateOnto(int source, int target) throws DescriptorException { fake().duplicateOnto(source, target); }
    @Override public int openNullDevice(Access access) throws DescriptorException { return fake().openNullDevice(access); }
    @Override public void close(int fd) throws DescriptorException { fake().close(fd); }
    @Override public int openAppend(String path) throws DescriptorException { return fake().openAppend(path); }
    @Override public PipeEnds pipe() throws DescriptorException { return fake().pipe(); }
    @Override public StandardOrigin standardOrigin(int fd) throws DescriptorException { return fake().standardOrigin(fd); }
    @Override public boolean sameFile(int a, int b) throws DescriptorException { return fake().sameFile(a, b); }
    @Override public String describe(int fd) { return fake().describe(fd); }
    @Override public FileIdentity identity(int fd) throws DescriptorException { return fake().identity(fd); }
    @Override public DescriptorStream open(int fd) throws DescriptorException { return fake().open(fd); }
    @Override public boolean tieChildrenToProcess() throws DescriptorException { return fake().tieChildrenToProcess(); }
}
