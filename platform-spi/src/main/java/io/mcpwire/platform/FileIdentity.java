package io.mcpwire.platform;

import java.util.Objects;

/**
 * What a descriptor refers to. {@link #sameFileAs} tells whether two descriptors name the same
 * file (device and file number on POSIX; volume serial and file index on Windows).
 *
 * @param device   the device or volume
 * @param file     the file number (inode, file index, or a provider-defined unique number)
 * @param kind     what kind of file it is
 * @param writable whether the descriptor is open for writing (a JVM started with fd 2 closed
 *                 puts its read-only module image there, which is no place for stray output)
 */
public record FileIdentity(long device, long file, Kind kind, boolean writable) {

    /** The kinds of file a standard descriptor can refer to. */
    public enum Kind {
        /** A pipe or FIFO. */
        PIPE,
        /** A socket. */
        SOCKET,
        /** A terminal (a person reads it). */
        TERMINAL,
        /** The null device. */
        NULL_DEVICE,
        /** A regular file. */
        FILE,
        /** Anything else (another character device, an unknown handle type). */
        OTHER
    }

    /** Validates the members. */
    public FileIdentity {
        Objects.requireNonNull(kind, "kind");
    }

    /** Whether both name the same file, whatever the access of each descriptor. */
    public boolean sameFileAs(FileIdentity other) {
        return device == other.device && file == other.file;
    }

    /** Whether this is a terminal. */
    public boolean isTerminal() {
        return kind == Kind.TERMINAL;
    }
}
