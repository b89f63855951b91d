/** Descriptor operations for Linux and macOS through JNA. */
module io.mcpwire.platform.posix {
    requires io.mcpwire.api;
    requires com.sun.jna;

    provides io.mcpwire.platform.PlatformDescriptors with io.mcpwire.platform.posix.PosixDescriptors;
}
