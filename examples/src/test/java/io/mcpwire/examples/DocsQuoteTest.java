package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every log line or error message the docs quote is one the code writes: each quoted message's
 * fixed parts (what stands between its placeholders) appear in the string literals of the main
 * sources. A message reworded in the code and not in the docs fails here.
 */
class DocsQuoteTest {
    private static final Path ROOT = Path.of("..");
    /** A span in backticks outside code blocks. */
    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
    /**
     * What stands for a value in a quoted message, or joins parts the code writes apart, between
     * its fixed parts: ellipses, single capitals (N), names in capitals (END_OF_INPUT, EBADF),
     * numbers, and the separators ": ", "; ", "[" and "]".
     */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\.\\.\\.|…|\\b[A-Z]\\b|\\b[A-Z_]{3,}\\b|\\d+|: |; |\\[|\\]");
    /** Punctuation a fixed part may begin or end with where the code puts a value next to it. */
    private static final String EDGES = " ()[],:;";
    /** Quotes of other software's messages, which the docs quote so that a user recognises them. */
    private static final List<String> OTHERS = List.of(
            "A restricted method in java.lang.System has been called"); // the JDK's native-access warning

    @Test
    void everyQuotedMessageIsOneTheCodeWrites() throws IOException {
        String code = literalsOfTheMainSources();
        List<String> quotes = quotes();
        assertTrue(quotes.size() >= 5, "found the docs' quoted messages: " + quotes);
        List<String> missing = new ArrayList<>();
        for (String quote : quotes) {
            for (String part : PLACEHOLDER.split(quote)) {
                String fixed = strip(part);
                if (fixed.length() >= 8 && !code.contains(fixed)) {
                    missing.add("`" + quote + "`: \"" + fixed + "\"");
                }
            }
        }
        assertEquals(List.of(), missing, "quoted in docs/, written nowhere in the main code");
    }

    private static String strip(String part) {
        int from = 0;
        int to = part.length();
        while (from < to && EDGES.indexOf(part.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && EDGES.indexOf(part.charAt(to - 1)) >= 0) {
            to--;
        }
        return part.substring(from, to);
    }

    /** Spans of five or more words, most of them lowercase: sentences the code writes, not code. */
    private static List<String> quotes() throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            for (Path doc : (Iterable<Path>) docs.filter(p -> p.toString().endsWith(".md")).sorted()::iterator) {
                String text = Files.readString(doc, StandardCharsets.UTF_8)
                        .replaceAll("(?s)```.*?```", "").replaceAll("\\s*\\R\\s*", " ");
                Matcher m = SPAN.matcher(text);
                while (m.find()) {
                    String[] words = m.group(1).trim().split("\\s+");
                    long lower = Stream.of(words).filter(w -> w.matches("[a-z][a-z'’,:;()]*")).count();
                    if (words.length >= 5 && lower >= 0.6 * words.length && !OTHERS.contains(m.group(1))) {
                        out.add(m.group(1));
                    }
                }
            }
        }
        return out;
    }

    /**
     * What the code writes: the string literals of the main Java sources, those of one statement
     * joined as its concatenation joins them ({@code ''} is MessageFormat's quote), statements apart;
     * and the interop scripts whole (the conformance summary is theirs).
     */
    private static String literalsOfTheMainSources() throws IOException {
        StringBuilder all = new StringBuilder();
        Pattern literal = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(DocsQuoteTest::source).collect(Collectors.toList())) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (!f.toString().endsWith(".java")) {
                    all.append(text).append('\u0000');
                    continue;
                }
                Matcher m = literal.matcher(text);
                int end = 0;
                while (m.find()) {
                    String between = text.substring(end, m.start());
                    if (between.contains(";") || between.contains("}")) {
                        all.append('\u0000'); // another statement
                    }
                    all.append(m.group(1).replace("''", "'"));
                    end = m.end();
                }
                all.append('\u0000');
            }
        }
        return all.toString();
    }

    private static boolean source(Path p) {
        String s = p.toString().replace('\\', '/');
        if (s.contains("/node_modules/") || s.contains("/target/")) {
            return false;
        }
        return (s.endsWith(".java") && s.contains("/src/main/"))
                || (s.contains("/interop/") && (s.endsWith(".mjs") || s.endsWith("/run")));
    }
}
