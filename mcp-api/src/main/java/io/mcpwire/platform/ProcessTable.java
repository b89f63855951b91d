package io.mcpwire.platform;

/** The key of the real process's descriptor table (see {@link PlatformDescriptors#descriptorTable()}). */
enum ProcessTable {
    /** The one real descriptor table of this process. */
    INSTANCE;

    @Override
    public String toString() {
        return "process descriptor table";
    }
}
