/** The stream claim engine and the stdio transport. */
module io.mcpwire.stdio {
    requires transitive io.mcpwire.api;
    requires transitive io.mcpwire.platform;

    exports io.mcpwire.stdio;

    uses io.mcpwire.platform.PlatformDescriptors;
}
