package io.mcpwire.stdio;

/**
 * A claim with {@link Isolation#REQUIRED} could not isolate the wire. The claim released what it
 * had taken before throwing: the standard streams are as they were.
 */
public final class IsolationUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with the reason, for example the provider that cannot run here. */
    public IsolationUnavailableException(String why) {
        super("stdio isolation is required (" + McpwireSettings.ISOLATION + "=required) but unavailable: " + why);
    }
}
