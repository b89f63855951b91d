/**
 * The {@code PlatformDescriptors} service provider interface through which the stream claim
 * reaches the operating system's descriptor table. It needs nothing but {@code java.base}, so a
 * provider carries no other library. The {@code support} packages hold what mcpwire's own
 * providers share (the POSIX rules in {@code support.posix}, the Windows rules in
 * {@code support.windows}, whatever binds them to the C library); they are not part of the
 * public API.
 */
module io.mcpwire.platform {
    exports io.mcpwire.platform;
    exports io.mcpwire.platform.support to
            io.mcpwire.platform.posix,
            io.mcpwire.platform.windows,
            io.mcpwire.platform.ffm,
            io.mcpwire.platform.test;
    exports io.mcpwire.platform.support.posix to
            io.mcpwire.platform.posix,
            io.mcpwire.platform.ffm;
    exports io.mcpwire.platform.support.windows to
            io.mcpwire.platform.windows,
            io.mcpwire.platform.ffm,
            io.mcpwire.platform.test;
}
