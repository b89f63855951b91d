/**
 * The POSIX and Windows rules that mcpwire's own native providers share, over binding interfaces
 * ({@code CLibrary}, {@code Win32}) that each provider implements with JNA or the foreign function
 * API. Internal: exported only to those providers and to the fake, which runs the Windows rules
 * over its model; published because the providers need it at run time.
 */
module io.mcpwire.platform.rules {
    requires transitive io.mcpwire.platform;

    exports io.mcpwire.platform.rules to
            io.mcpwire.platform.posix,
            io.mcpwire.platform.windows,
            io.mcpwire.platform.ffm,
            io.mcpwire.platform.test;
    exports io.mcpwire.platform.rules.posix to
            io.mcpwire.platform.posix,
            io.mcpwire.platform.ffm;
    exports io.mcpwire.platform.rules.windows to
            io.mcpwire.platform.windows,
            io.mcpwire.platform.ffm,
            io.mcpwire.platform.test;
}
