package io.mcpwire.platform;

/**
 * The two descriptors of a pipe that {@link PlatformDescriptors#pipe()} made: bytes written to
 * {@link #writeEnd()} are read, in order, from {@link #readEnd()}.
 *
 * @param readEnd  the end to read, numbered 3 or above
 * @param writeEnd the end to write, numbered 3 or above
 */
public record PipeEnds(int readEnd, int writeEnd) {

    /** Checks that neither end is a standard descriptor, nor both the same one. */
    public PipeEnds {
        if (readEnd <= PlatformDescriptors.STDERR || writeEnd <= PlatformDescriptors.STDERR || readEnd == writeEnd) {
            throw new IllegalArgumentException("a pipe's ends are two descriptors above fd 2, not "
                    + readEnd + " and " + writeEnd);
        }
    }
}
