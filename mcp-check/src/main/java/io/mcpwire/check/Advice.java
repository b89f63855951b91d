package io.mcpwire.check;

import java.util.regex.Pattern;

/** The likely cause of stray output, told from its text, phrased as what to do. */
final class Advice {
    private static final Pattern LOG_LINE = Pattern.compile(
            ".*\\b\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}.*\\b(TRACE|DEBUG|INFO|WARN|WARNING|ERROR)\\b.*");

    private Advice() {
    }

    /** Mostly drawing characters, as a banner's lines are. */
    private static boolean asciiArt(String line) {
        long drawing = line.chars().filter(c -> "_|/\\()='`".indexOf(c) >= 0).count();
        long letters = line.chars().filter(Character::isLetter).count();
        return drawing >= 6 && letters * 4 <= drawing;
    }

    /** Advice for a stray line, or empty when no cause can be told. */
    static String forStray(String line) {
        if (line.contains(":: Spring Boot ::") || line.contains("|____|") || line.contains(".   ____") || asciiArt(line)) {
            return "a start-up banner (Spring Boot's: set spring.main.banner-mode=off, or add "
                    + "mcpwire-spring-boot-starter, which claims stdout before the banner)";
        }
        if (LOG_LINE.matcher(line).matches()) {
            return "a log line on stdout: send the console appender to stderr (logback: <target>System.err</target>; "
                    + "Spring Boot: logging.pattern.console= or mcpwire's starter), or claim stdout with mcpwire";
        }
        if (line.startsWith("Picked up JAVA_TOOL_OPTIONS") || line.startsWith("WARNING: ")
                || line.startsWith("OpenJDK") || line.startsWith("[") && line.contains("][")) {
            return "the JVM's own output: it goes to stderr unless stderr is merged into stdout (2>&1) or "
                    + "-Xlog sends it to stdout; send it to stderr (-Xlog:all=warning:stderr)";
        }
        return "something in the server writes to stdout (a print in a tool, a library, a child process "
                + "that inherits stdout): write to stderr, or claim the standard streams with mcpwire";
    }
}
