package io.mcpwire.platform.test;

/** The platform operations a {@link FakeProcess} logs and can fail on script. */
public enum Op {
    /** {@code duplicateAboveStandard(fd)}: the private duplicate. */
    DUP_ABOVE_STANDARD,
    /** {@code duplicate(fd)}. */
    DUP,
    /** {@code duplicateOnto(source, target)}: {@code dup2}. */
    DUP2,
    /** {@code openNullDevice(access)}. */
    OPEN_NULL,
    /** {@code openAppend(path)}: the stray-output file. */
    OPEN_APPEND,
    /** {@code standardOrigin(fd)}. */
    ORIGIN,
    /** {@code close(fd)}. */
    CLOSE,
    /** {@code rebindStandardHandle(fd)}. */
    REBIND,
    /** {@code identity(fd)}. */
    IDENTITY,
    /** {@code open(fd)}: a descriptor stream. */
    OPEN_STREAM,
    /** A read on a descriptor stream. */
    READ,
    /** A write on a descriptor stream. */
    WRITE
}
