package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * {@code demo.cmd} read the way cmd.exe reads it, on any OS: cmd expands {@code %VAR%} in a
 * parenthesised block once, when it parses the block, so a status read there is the one from
 * before the block ran; and a batch file with LF line ends can miss its labels.
 */
class DemoCmdTest {
    private static final Path DEMO_CMD = Path.of("..", "demo.cmd");

    @Test
    void noStatusIsReadInsideTheBlockThatSetsIt() throws IOException {
        List<String> inBlocks = new ArrayList<>();
        int depth = 0;
        int number = 0;
        for (String line : Files.readAllLines(DEMO_CMD, StandardCharsets.US_ASCII)) {
            number++;
            String code = line.strip();
            if (code.toLowerCase(Locale.ROOT).startsWith("rem ") || code.startsWith("::")) {
                continue;
            }
            int opened = depth;
            depth += parens(code);
            if ((opened > 0 || code.contains("(")) && code.toLowerCase(Locale.ROOT).contains("%errorlevel%")) {
                inBlocks.add(number + ": " + code);
            }
        }
        assertEquals(0, depth, "the parentheses of demo.cmd balance");
        assertEquals(List.of(), inBlocks, "%errorlevel% read inside a parenthesised block is the status from before it");
    }

    @Test
    void everyLineEndsWithCrLf() throws IOException {
        String text = Files.readString(DEMO_CMD, StandardCharsets.US_ASCII);
        assertTrue(text.endsWith("\r\n"), "the last line ends with CRLF");
        assertEquals(text.split("\n", -1).length - 1, text.split("\r\n", -1).length - 1,
                "every LF comes after a CR (.gitattributes: *.cmd eol=crlf)");
    }

    /** Opening minus closing parentheses outside double quotes. */
    private static int parens(String code) {
        int n = 0;
        boolean quoted = false;
        for (char c : code.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                n++;
            } else if (!quoted && c == ')') {
                n--;
            }
        }
        return n;
    }
}
