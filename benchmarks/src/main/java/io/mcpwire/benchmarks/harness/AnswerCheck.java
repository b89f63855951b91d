package io.mcpwire.benchmarks.harness;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

/**
 * Parses one answer line whole and judges it against what its request asked for
 * ({@link Expected}): a JSON-RPC 2.0 response with a numeric id and the result the method
 * defines. A JSON-RPC error, or a tool result with {@code isError: true}, is an {@link
 * Verdict#ERROR}; anything else that is not the expected result is {@link Verdict#WRONG}.
 * Streaming, without a tree: the harness checks every answer of every batch.
 */
final class AnswerCheck {
    /** How an answer compares with its request. */
    enum Verdict {
        RIGHT, ERROR, WRONG
    }

    /** An answer's request id (-1 when none could be read) and its verdict. */
    record Checked(long id, Verdict verdict) {
    }

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(64 << 20).build())
            .build();

    private AnswerCheck() {
    }

    static Checked check(byte[] line, Expected expected) {
        return check(line, 0, line.length, expected);
    }

    static Checked check(byte[] b, int offset, int length, Expected expected) {
        long id = -1;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), b, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Checked(-1, Verdict.WRONG);
            }
            boolean version = false;
            boolean error = false;
            Verdict result = null;
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "jsonrpc" -> version = value == JsonToken.VALUE_STRING && p.getString().equals("2.0");
                    case "id" -> id = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : -1;
                    case "error" -> {
                        error = true;
                        p.skipChildren();
                    }
                    case "result" -> result = value == JsonToken.START_OBJECT ? result(p, expected) : Verdict.WRONG;
                    default -> p.skipChildren();
                }
                skipRest(p, value);
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return new Checked(id, Verdict.WRONG); // not one whole object on the line
            }
            if (expected instanceof Expected.SameLine) {
                return new Checked(id, version && id >= 0 ? Verdict.RIGHT : Verdict.WRONG);
            }
            if (error && result == null) {
                return new Checked(id, version ? Verdict.ERROR : Verdict.WRONG);
            }
            if (!version || error || result == null || id < 0) {
                return new Checked(id, Verdict.WRONG);
            }
            return new Checked(id, result);
        } catch (JacksonException e) {
            return new Checked(id, Verdict.WRONG);
        }
    }

    /** Skips a member's object or array that the reading of it left unread. */
    private static void skipRest(JsonParser p, JsonToken value) {
        if (value.isStructStart() && p.currentToken() == value) {
            p.skipChildren();
        }
    }

    /** Reads the result object, the parser on its start, and judges it. */
    private static Verdict result(JsonParser p, Expected expected) {
        ResultMembers m = new ResultMembers();
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            switch (name) {
                case "protocolVersion" -> m.protocolVersion = value == JsonToken.VALUE_STRING && !p.getString().isEmpty();
                case "resultType" -> m.complete = value == JsonToken.VALUE_STRING && p.getString().equals("complete");
                case "isError" -> m.isError = value == JsonToken.VALUE_TRUE ? Boolean.TRUE
                        : value == JsonToken.VALUE_FALSE ? Boolean.FALSE : null;
                case "supportedVersions" -> m.modernVersion = value == JsonToken.START_ARRAY && holdsModernVersion(p);
                case "content" -> m.textMatches = value == JsonToken.START_ARRAY && expected instanceof Expected.Echoed e
                        && oneTextEqualTo(p, e.text());
                default -> p.skipChildren();
            }
            skipRest(p, value);
        }
        if (expected instanceof Expected.Initialized) {
            return m.protocolVersion ? Verdict.RIGHT : Verdict.WRONG;
        }
        if (expected instanceof Expected.Discovered) {
            return m.modernVersion && m.complete ? Verdict.RIGHT : Verdict.WRONG;
        }
        if (expected instanceof Expected.Echoed e) {
            return Boolean.TRUE.equals(m.isError) ? Verdict.ERROR
                    : m.textMatches && (!e.modern() || m.complete) ? Verdict.RIGHT : Verdict.WRONG;
        }
        return Verdict.RIGHT; // a pong, or a line sent back: any object
    }

    /** What a result held, member by member. */
    private static final class ResultMembers {
        boolean protocolVersion;
        boolean complete;
        boolean modernVersion;
        boolean textMatches;
        /** {@code isError} as given; absent (or not a boolean) is null. */
        Boolean isError;
    }

    private static boolean holdsModernVersion(JsonParser p) {
        boolean found = false;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == JsonToken.VALUE_STRING && p.getString().equals("2026-07-28")) {
                found = true;
            }
            p.skipChildren();
        }
        return found;
    }

    /** Reads a content array, the parser on its start: true when it is one text item whose text is {@code text}. */
    private static boolean oneTextEqualTo(JsonParser p, String text) {
        int items = 0;
        boolean matches = false;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            items++;
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            boolean typeText = false;
            boolean sameText = false;
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("type")) {
                    typeText = value == JsonToken.VALUE_STRING && p.getString().equals("text");
                } else if (name.equals("text")) {
                    sameText = value == JsonToken.VALUE_STRING && sameChars(p, text);
                } else {
                    p.skipChildren();
                }
                skipRest(p, value);
            }
            matches = typeText && sameText;
        }
        return items == 1 && matches;
    }

    /** Compares the parser's string with {@code text} where the parser holds it, without making a String of it. */
    private static boolean sameChars(JsonParser p, String text) {
        int length = p.getStringLength();
        if (length != text.length()) {
            return false;
        }
        char[] chars = p.getStringCharacters();
        int offset = p.getStringOffset();
        for (int i = 0; i < length; i++) {
            if (chars[offset + i] != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
