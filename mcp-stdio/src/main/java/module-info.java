/** The stream claim engine and the stdio transport. */
module io.mcpwire.stdio {
    requires transitive io.mcpwire.api;


    uses io.mcpwire.platform.PlatformDescriptors;
}
