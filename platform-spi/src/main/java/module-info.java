/**
 * The {@code PlatformDescriptors} service provider interface through which the stream claim
 * reaches the operating system's descriptor table, and nothing else: it needs only
 * {@code java.base}, so a provider carries no other library.
 */
module io.mcpwire.platform {
    exports io.mcpwire.platform;
}
