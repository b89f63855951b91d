package io.mcpwire.platform;

/** The direction a descriptor is opened for. */
public enum Access {
    /** Read only. */
    READ,
    /** Write only. */
    WRITE
}
