/**
 * The claim of the standard streams ({@link io.mcpwire.claim.StdioClaim}): on the provider SPI and
 * {@code java.base} alone, so that any transport, whatever its JSON library, can serve over it.
 */
module io.mcpwire.claim {
    requires transitive io.mcpwire.platform;

    exports io.mcpwire.claim;
    // the byte ring under the claim's stray-output drain also buffers the transport's input
    exports io.mcpwire.claim.buffer to io.mcpwire.stdio;

    uses io.mcpwire.platform.PlatformDescriptors;
}
