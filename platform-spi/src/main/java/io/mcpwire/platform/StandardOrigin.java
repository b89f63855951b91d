package io.mcpwire.platform;

/**
 * Where a standard descriptor (0, 1 or 2) came from, as {@link PlatformDescriptors#standardOrigin}
 * tells. Only a descriptor the parent process gave can be the wire; the others are never touched.
 */
public enum StandardOrigin {
    /** The parent process gave it: the client's end of the wire, a terminal, a file, a pipe. */
    INHERITED,
    /**
     * The parent gave none, and this process has since opened a file of its own there: a JVM
     * started with fd 0 closed opens its module image ({@code lib/modules}) on the lowest free
     * descriptor, and a class-path jar may land on fd 1. Reading or moving it would break the JVM.
     */
    PROCESS_OWN,
    /** The parent gave none and nothing is open there. */
    CLOSED
}
