/**
 * The platform provider for Linux, macOS and FreeBSD: the claim's descriptor operations through
 * the C library, via JNA. Its JNA bindings live in one package, opened to JNA alone.
 */
module io.mcpwire.platform.posix {
    requires io.mcpwire.platform.rules;
    requires com.sun.jna;

    opens io.mcpwire.platform.posix.jna to com.sun.jna;

    provides io.mcpwire.platform.PlatformDescriptors with io.mcpwire.platform.posix.PosixDescriptors;
}
