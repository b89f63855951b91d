package io.mcpwire.stdio;

import java.util.Locale;

/**
 * Whether the process's own stderr (the server's logging, {@code System.err}) goes through the
 * claim's stray-output drain while claimed, as what is diverted from stdout always does. Chosen with
 * {@link StdioClaim.Builder#stderr} or {@code mcpwire.stderr=guarded|direct} (see {@code McpwireSettings}). Only a stderr
 * that can stall (a pipe or a socket, which block their writer once full and unread) is ever
 * guarded; see {@code docs/claim.md}, "Stray output never blocks".
 */
public enum StderrPolicy {

    /**
     * fd 2 writes into the drain too, so that a host that never reads stderr cannot block a thread
     * that logs (the default). What the drain holds when the process dies abruptly is lost: at most
     * its buffer and the pipe's.
     */
    GUARDED,
    /**
     * fd 2 is left as the host gave it: a write reaches stderr before it returns, and blocks while a
     * host does not read it.
     */
    DIRECT;

    /** The setting that chooses it: {@value}. */
    public static final String SETTING = "mcpwire.stderr";

    /**
     * What a setting says: {@code guarded} (or blank) or {@code direct}, in any case.
     *
     * @throws IllegalArgumentException for anything else, naming the setting
     */
    public static StderrPolicy parse(String setting) {
        String value = setting.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "", "guarded" -> GUARDED;
            case "direct" -> DIRECT;
            default -> throw new IllegalArgumentException(SETTING + "=" + setting.trim() + ": expected guarded or direct");
        };
    }
}
