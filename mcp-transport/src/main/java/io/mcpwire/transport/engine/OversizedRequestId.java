package io.mcpwire.transport.engine;

import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Optional;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Finds the id of a JSON-RPC request in a line too long to hold, as its bytes stream past, so
 * that the error that answers the line can carry the id the client waits on. It keeps a few
 * counters, one bit per open object or array, and at most {@value #MAX_ID_BYTES} bytes of the id,
 * whatever the line's length.
 *
 * <p>An id is read only where a codec would read the same one from the whole line: the line is
 * UTF-8 and one JSON object, checked to its last byte, it has a top-level {@code "method"}, and its
 * top-level {@code "id"} appears once. An {@code "id"} inside {@code params} is not the request's.
 * The codec's bounds on a string's, a number's or a name's length and on a message's tokens guard
 * the memory of a line held whole; the scan holds none of it, so a long string (the usual reason a
 * line is too long) or many values do not cost the request its id. Past the codec's nesting depth, or where in doubt (a top-level member
 * name written with escapes), no id is read, and the line is answered with a null id, as JSON-RPC
 * asks when none can be read. Not thread-safe: the framer's reading thread.
 */
final class OversizedRequestId {
    /** The longest id kept, in bytes of JSON; a longer one is not read. */
    static final int MAX_ID_BYTES = 1024;
    private static final int MAX_KEY_BYTES = 8;
    private static final byte[] ID = "id".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] METHOD = "method".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    /** What the next byte may be, between tokens or inside one. */
    private enum Expect {
        /** The top-level object's {@code {}, after white space. */
        ROOT,
        /** A member's name, or the {@code }} of an empty object. */
        NAME_OR_CLOSE,
        /** A member's name, after a comma. */
        NAME,
        /** The colon after a member's name. */
        COLON,
        /** A value, or the {@code ]} of an empty array. */
        VALUE_OR_CLOSE,
        /** A value. */
        VALUE,
        /** A comma, or the end of the object or array the last value was in. */
        COMMA_OR_CLOSE,
        /** Only white space: the top-level object has ended. */
        END,
        /** Inside a string, a name's or a value's. */
        STRING,
        /** Inside a number. */
        NUMBER,
        /** Inside {@code true}, {@code false} or {@code null}. */
        LITERAL,
        /** The line cannot be a request the codec reads: nothing more is looked at. */
        SPOILED
    }

    /** Where a number is in JSON's grammar. */
    private enum NumberAt { MINUS, ZERO, INTEGER, POINT, FRACTION, E, E_SIGN, EXPONENT }

    /** The codec's nesting limit: deeper, no id is read (the bits that track nesting stay bounded). */
    private final int maxNestingDepth;
    private Expect expect = Expect.ROOT;

    // UTF-8: how many continuation bytes are owed, and the range the next one must be in.
    private int utf8Owed;
    private int utf8Low = 0x80;
    private int utf8High = 0xBF;

    private int depth; // open objects and arrays, the top-level object included
    private final BitSet arrays = new BitSet(); // bit d: the container at depth d is an array

    // The token being read.
    private boolean readingName;
    private int escape; // 0 outside an escape, 1 after the backslash, 2 to 5 in \\uXXXX's hex digits
    private boolean nameEscaped;
    private NumberAt number;
    private byte[] literal;
    private int literalAt;

    // The top-level members.
    private final byte[] keyBytes = new byte[MAX_KEY_BYTES];
    private int keyLength;        // -1 once the name is longer than any looked for
    /** What the top-level member whose value comes next is, to the scan. */
    private enum Member { OTHER, ID, METHOD }
    private Member member = Member.OTHER;
    private boolean capturing;    // the value being read is the top-level "id"
    private final byte[] id = new byte[MAX_ID_BYTES];
    private int idLength;         // -1 once the id is longer than MAX_ID_BYTES, or no scalar
    private boolean idComplete;
    private boolean sawId;
    private boolean hasMethod;

    /** A scanner that holds the line to {@link JsonRpcCodec.Limits#DEFAULT}. */
    OversizedRequestId() {
        this(JsonRpcCodec.Limits.DEFAULT);
    }

    /** A scanner that reads no id past the nesting depth of the codec that would have decoded the line. */
    OversizedRequestId(JsonRpcCodec.Limits limits) {
        this.maxNestingDepth = limits.maxNestingDepth();
    }

    /** Reads {@code bytes[from, to)}, the next bytes of the line. */
    void feed(byte[] bytes, int from, int to) {
        for (int i = from; i < to && expect != Expect.SPOILED; i++) {
            if (expect == Expect.STRING && escape == 0 && utf8Owed == 0 && !capturing && !(readingName && depth == 1)) {
                // Inside a long string, the bulk of a line too long to hold: plain ASCII needs no step.
                while (i < to && plainInString(bytes[i])) {
                    i++;
                }
                if (i == to) {
                    break;
                }
            }
            byte b = bytes[i];
            if (!utf8(b)) {
                spoil();
            } else {
                step(b);
            }
        }
    }

    /** The request's id, when the line was a whole request whose id could be read, and nothing else in it says otherwise. */
    Optional<RequestId> id() {
        if (expect != Expect.END || utf8Owed != 0 || !hasMethod || !idComplete) {
            return Optional.empty();
        }
        return parse(id, idLength);
    }

    private void step(byte b) {
        switch (expect) {
            case STRING -> string(b);
            case NUMBER -> {
                if (!number(b)) {
                    valueEnded(); // the byte after a number is the next token's
                    between(b);
                }
            }
            case LITERAL -> literal(b);
            default -> between(b);
        }
    }

    /** A byte between tokens: white space, punctuation, or a token's first byte. */
    private void between(byte b) {
        if (whiteSpace(b)) {
            return;
        }
        switch (expect) {
            case ROOT -> {
                if (b == '{') {
                    open(false);
                } else {
                    spoil(); // a batch, or no JSON: no request's id
                }
            }
            case NAME_OR_CLOSE -> {
                if (b == '}') {
                    close();
                } else {
                    name(b);
                }
            }
            case NAME -> name(b);
            case COLON -> {
                if (b == ':') {
                    expect = Expect.VALUE;
                    if (depth == 1) {
                        memberValueStarts();
                    }
                } else {
                    spoil();
                }
            }
            case VALUE_OR_CLOSE -> {
                if (b == ']') {
                    close();
                } else {
                    value(b);
                }
            }
            case VALUE -> value(b);
            case COMMA_OR_CLOSE -> {
                boolean inArray = arrays.get(depth);
                if (b == ',') {
                    expect = inArray ? Expect.VALUE : Expect.NAME;
                } else if (b == (inArray ? ']' : '}')) {
                    close();
                } else {
                    spoil();
                }
            }
            default -> spoil(); // after the object: not one message
        }
    }

    private void name(byte b) {
        if (b != '"') {
            spoil();
            return;
        }
        startToken(Expect.STRING);
        readingName = true;
        nameEscaped = false;
        keyLength = 0;
    }

    private void value(byte b) {
        keep(b);
        if (b == '{' || b == '[') {
            if (capturing) {
                idLength = -1; // an object or array is no id
            }
            open(b == '[');
        } else if (b == '"') {
            startToken(Expect.STRING);
            readingName = false;
        } else if (b == '-' || (b >= '0' && b <= '9')) {
            startToken(Expect.NUMBER);
            number = b == '-' ? NumberAt.MINUS : b == '0' ? NumberAt.ZERO : NumberAt.INTEGER;
        } else if (b == 't' || b == 'f' || b == 'n') {
            startToken(Expect.LITERAL);
            literal = b == 't' ? TRUE : b == 'f' ? FALSE : NULL;
            literalAt = 1;
        } else {
            spoil();
        }
    }

    private void startToken(Expect token) {
        expect = token;
        escape = 0;
    }

    private void open(boolean array) {
        depth++;
        if (depth >= maxNestingDepth) {
            spoil(); // at or past the codec's limit
            return;
        }
        arrays.set(depth, array);
        expect = array ? Expect.VALUE_OR_CLOSE : Expect.NAME_OR_CLOSE;
    }

    private void close() {
        arrays.clear(depth);
        depth--;
        if (depth == 0) {
            expect = Expect.END;
        } else {
            valueEnded();
        }
    }

    /** After a value: a top-level member's ends here, and a comma or a close comes next. */
    private void valueEnded() {
        expect = depth == 0 ? Expect.END : Expect.COMMA_OR_CLOSE;
        if (depth == 1 && capturing) {
            capturing = false;
            idComplete = idLength > 0;
        }
    }

    private void string(byte b) {
        if (readingName && depth == 1) {
            keyByte(b);
        } else {
            keep(b);
        }
        if (escape == 1) {
            if (b == 'u') {
                escape = 2;
            } else if (b == '"' || b == '\\' || b == '/' || b == 'b' || b == 'f' || b == 'n' || b == 'r' || b == 't') {
                escape = 0;
            } else {
                spoil();
            }
        } else if (escape > 1) {
            if (!hexDigit(b)) {
                spoil();
            }
            escape = escape == 5 ? 0 : escape + 1;
        } else if (b == '"') {
            stringEnded();
        } else if (b == '\\') {
            escape = 1;
            nameEscaped |= readingName;
        } else if ((b & 0xFF) < 0x20) {
            spoil(); // an unescaped control character
        }
    }

    private void stringEnded() {
        if (!readingName) {
            valueEnded();
            return;
        }
        expect = Expect.COLON;
        if (depth == 1) {
            member = key(ID) ? Member.ID : key(METHOD) ? Member.METHOD : Member.OTHER;
            if (nameEscaped) {
                spoil(); // "i\u0064" is "id" to the codec: no guess at what a name written so means
            } else if (member == Member.ID) {
                if (sawId) {
                    spoil(); // a second "id": the codec refuses the line
                }
                sawId = true;
            }
        }
    }

    /** Whether the top-level name just read is {@code name}. */
    private boolean key(byte[] name) {
        return keyLength == name.length && Arrays.equals(keyBytes, 0, keyLength, name, 0, name.length);
    }

    private void memberValueStarts() {
        if (member == Member.ID) {
            capturing = true;
            idLength = 0;
        } else if (member == Member.METHOD) {
            hasMethod = true;
        }
    }

    private void keyByte(byte b) {
        if (b == '"' && escape == 0) {
            return;
        }
        if (keyLength >= 0 && keyLength < MAX_KEY_BYTES) {
            keyBytes[keyLength++] = b;
        } else {
            keyLength = -1;
        }
    }

    /**
     * Whether {@code b} goes on the number. A byte that cannot is the next token's when the number
     * is whole there ({@code 0}, {@code 12}, {@code 1.5}, {@code 1e3}); otherwise the line is no JSON.
     */
    private boolean number(byte b) {
        boolean digit = b >= '0' && b <= '9';
        boolean exponent = b == 'e' || b == 'E';
        NumberAt next = switch (number) {
            case MINUS -> b == '0' ? NumberAt.ZERO : digit ? NumberAt.INTEGER : null;
            case ZERO -> b == '.' ? NumberAt.POINT : exponent ? NumberAt.E : null;
            case INTEGER -> digit ? NumberAt.INTEGER : b == '.' ? NumberAt.POINT : exponent ? NumberAt.E : null;
            case POINT -> digit ? NumberAt.FRACTION : null;
            case FRACTION -> digit ? NumberAt.FRACTION : exponent ? NumberAt.E : null;
            case E -> b == '+' || b == '-' ? NumberAt.E_SIGN : digit ? NumberAt.EXPONENT : null;
            case E_SIGN, EXPONENT -> digit ? NumberAt.EXPONENT : null;
        };
        if (next == null) {
            boolean whole = number == NumberAt.ZERO || number == NumberAt.INTEGER
                    || number == NumberAt.FRACTION || number == NumberAt.EXPONENT;
            if (!whole) {
                spoil(); // "-x", "1.", "1e"
            }
            return !whole;
        }
        number = next;
        keep(b);
        return true;
    }

    private void literal(byte b) {
        keep(b);
        if (b != literal[literalAt]) {
            spoil();
        } else if (++literalAt == literal.length) {
            valueEnded();
        }
    }

    private void keep(byte b) {
        if (!capturing) {
            return;
        }
        if (idLength >= 0 && idLength < MAX_ID_BYTES) {
            id[idLength++] = b;
        } else {
            idLength = -1;
        }
    }

    private void spoil() {
        expect = Expect.SPOILED;
    }

    /** Whether {@code b} may come next in well-formed UTF-8, as the codec's check asks. */
    private boolean utf8(byte b) {
        int u = b & 0xFF;
        if (utf8Owed > 0) {
            boolean fits = u >= utf8Low && u <= utf8High;
            utf8Owed--;
            utf8Low = 0x80;
            utf8High = 0xBF;
            return fits;
        }
        if (u < 0x80) {
            return true;
        }
        if (u >= 0xC2 && u <= 0xDF) {
            utf8Owed = 1;
        } else if (u >= 0xE0 && u <= 0xEF) {
            utf8Owed = 2;
            utf8Low = u == 0xE0 ? 0xA0 : 0x80; // no overlong form
            utf8High = u == 0xED ? 0x9F : 0xBF; // no surrogate
        } else if (u >= 0xF0 && u <= 0xF4) {
            utf8Owed = 3;
            utf8Low = u == 0xF0 ? 0x90 : 0x80;
            utf8High = u == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
        } else {
            return false;
        }
        return true;
    }

    /** A byte that a string takes as it is: ASCII, not a control character, a quote or a backslash. */
    private static boolean plainInString(byte b) {
        return b >= 0x20 && b != '"' && b != '\\';
    }

    private static boolean hexDigit(byte b) {
        return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
    }

    private static boolean whiteSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /**
     * The id the codec would read ({@link RequestId#read}); anything else reads as no id. On the
     * streaming API: a databind mapper would need the Jackson annotations of its own release, which
     * a framework's class path may hold in an older one.
     */
    private static Optional<RequestId> parse(byte[] token, int length) {
        try (JsonParser p = Json.FACTORY.createParser(ObjectReadContext.empty(), token, 0, length)) {
            Optional<RequestId> id = RequestId.read(p, p.nextToken());
            return p.nextToken() == null ? id : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty(); // not JSON after all: no id
        }
    }

    /** Made at the first oversized request's id, not when a session's framer is: most sessions never need it. */
    private static final class Json {
        /** Its bounds are the defaults, far above the {@value OversizedRequestId#MAX_ID_BYTES} bytes kept. */
        static final JsonFactory FACTORY = JsonFactory.builder().build();
    }
}
