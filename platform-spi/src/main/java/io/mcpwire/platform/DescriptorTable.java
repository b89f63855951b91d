package io.mcpwire.platform;

/**
 * Identifies one descriptor table: claims are registered per table, so that a claim on a fake
 * table never meets a claim on the real process. Compared by identity.
 */
public final class DescriptorTable {
    /** This process's real descriptor table, the one every provider of the real process acts on. */
    public static final DescriptorTable PROCESS = new DescriptorTable("process descriptor table");

    private final String name;

    private DescriptorTable(String name) {
        this.name = name;
    }

    /** A new table, distinct from every other (for fakes); {@code name} is for messages. */
    public static DescriptorTable create(String name) {
        return new DescriptorTable(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
