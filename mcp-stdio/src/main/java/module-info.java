/**
 * The claim of the standard streams ({@link io.mcpwire.stdio.StdioClaim}): the algorithm that moves
 * the wire to private descriptors and stray output away from it, on the {@code PlatformDescriptors}
 * SPI (providers found with {@code ServiceLoader}) and {@code java.base} alone, so that any
 * transport, whatever its JSON library, can serve over it.
 */
module io.mcpwire.stdio {
    requires transitive io.mcpwire.platform;

    exports io.mcpwire.stdio;
    // the byte ring under the claim's stray-output drain also buffers the transport's input
    exports io.mcpwire.stdio.buffer to io.mcpwire.transport;

    uses io.mcpwire.platform.PlatformDescriptors;
}
