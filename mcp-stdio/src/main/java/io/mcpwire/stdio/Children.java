package io.mcpwire.stdio;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What becomes of the processes the server started when it stops serving (its claim is released:
 * end of input, the host's exit, a close, SIGTERM). Chosen with {@code mcpwire.children}, and the
 * grace before a forcible end with {@code mcpwire.children-grace} (see {@code McpwireSettings});
 * see {@code docs/hosts.md}, "What ends when".
 */
public enum Children {

    /**
     * Ended: every process the JVM started that still runs, and their descendants, are asked to end
     * ({@link ProcessHandle#destroy()}), then ended forcibly once the grace has passed. A process
     * that detached itself (its own session, or reparented away) is not touched. The default.
     */
    END,
    /** Left running. */
    LEAVE;

    /** The setting that chooses it: {@value}. */
    public static final String SETTING = "mcpwire.children";
    /** The setting of the grace before a forcible end: {@value}. */
    public static final String GRACE_SETTING = "mcpwire.children-grace";

    /** The longest grace a child is given between the request to end and the forcible end. */
    public static final Duration MAX_GRACE = Duration.ofSeconds(2);

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s)?");

    /**
     * What a setting says: {@code end} (or blank) or {@code leave}, in any case.
     *
     * @throws IllegalArgumentException for anything else, naming the setting
     */
    public static Children parse(String setting) {
        return switch (setting.trim().toLowerCase(Locale.ROOT)) {
            case "", "end" -> END;
            case "leave" -> LEAVE;
            default -> throw new IllegalArgumentException(SETTING + "=" + setting.trim()
                    + ": expected end or leave");
        };
    }

    /**
     * The grace a setting says: milliseconds ({@code 500}, {@code 500ms}), seconds ({@code 2s}) or
     * ISO-8601 ({@code PT1.5S}), from 0 to {@link #MAX_GRACE}; blank for the longest.
     *
     * @throws IllegalArgumentException for anything else, naming the setting
     */
    public static Duration parseGrace(String setting) {
        String s = setting.trim();
        if (s.isEmpty()) {
            return MAX_GRACE;
        }
        Duration grace;
        Matcher m = DURATION.matcher(s.toLowerCase(Locale.ROOT));
        try {
            grace = m.matches() ? ("s".equals(m.group(2)) ? Duration.ofSeconds(Long.parseLong(m.group(1)))
                    : Duration.ofMillis(Long.parseLong(m.group(1)))) : Duration.parse(s);
        } catch (RuntimeException e) {
            throw invalidGrace(s);
        }
        if (grace.isNegative() || grace.compareTo(MAX_GRACE) > 0) {
            throw invalidGrace(s);
        }
        return grace;
    }

    private static IllegalArgumentException invalidGrace(String setting) {
        return new IllegalArgumentException(GRACE_SETTING + "=" + setting
                + ": expected a duration from 0 to 2s, such as 500ms, 2s or PT1.5S");
    }
}
