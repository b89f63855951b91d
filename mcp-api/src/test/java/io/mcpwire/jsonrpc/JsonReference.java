package io.mcpwire.jsonrpc;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the codec's answers are judged against: a plain reading of a line with Jackson's databind
 * and no limits worth the name, and the extent of what a line holds (its depth, its longest name,
 * number and string), measured the way the codec's parser meets them.
 */
final class JsonReference {
    /** The top-level members the codec reads; every other one it skips unread. */
    static final Set<String> KNOWN = Set.of("jsonrpc", "method", "id", "params", "result", "error");

    private static final StreamReadConstraints UNBOUNDED = StreamReadConstraints.builder()
            .maxNestingDepth(1_000_000).maxStringLength(Integer.MAX_VALUE).maxNumberLength(Integer.MAX_VALUE)
            .maxNameLength(Integer.MAX_VALUE).build();
    private static final JsonFactory FACTORY = JsonFactory.builder().streamReadConstraints(UNBOUNDED).build();
    private static final JsonMapper MAPPER = JsonMapper.builder(FACTORY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    /** A codec with limits no line of a test reaches: what a line means when no limit stands in the way. */
    private static final JsonRpcCodec UNLIMITED = new JsonRpcCodec(new JsonRpcCodec.Limits(1_000_000, 1 << 30, 1 << 30, 1 << 30, Integer.MAX_VALUE));
    private static final String LIMIT = "exceeds a decoding limit";
    /** The one limit no codec can raise: a number whose exponent not even a {@code BigDecimal} holds. */
    private static final String BOUNDLESS = LIMIT + ": a number beyond";

    private JsonReference() {
    }

    /** Whether {@code result} refuses a line for exceeding a limit. */
    static boolean isLimitError(DecodeResult result) {
        return result instanceof DecodeError e && e.message().startsWith(LIMIT);
    }

    /**
     * Whether a limit error for {@code line} is owed to a limit: with every limit out of reach the
     * line decodes, or fails for another reason (or for the one limit that cannot be raised).
     */
    static boolean limitErrorIsOwedToALimit(byte[] line) {
        DecodeResult unlimited = UNLIMITED.decode(line, 0, line.length);
        return !isLimitError(unlimited) || ((DecodeError) unlimited).message().startsWith(BOUNDLESS);
    }

    /** The one JSON value that strict UTF-8 {@code line} holds; empty when it is not exactly one value. */
    static Optional<JsonNode> tree(byte[] line) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line));
            JsonNode node = MAPPER.readTree(line);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (CharacterCodingException | JacksonException e) {
            return Optional.empty();
        }
    }

    /** Reads JSON text as the reference does: for an encoded message, which is always one value. */
    static JsonNode read(byte[] json) {
        return MAPPER.readTree(json);
    }

    /**
     * What a message means to JSON-RPC: the members of its kind (a call's method and params, a
     * response's result or error; any other member is ignored), its id, and of the error object
     * its code, message and data.
     */
    static JsonNode meaning(JsonNode message) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        Set<String> members = message.has("method") ? Set.of("jsonrpc", "id", "method", "params") : Set.of("jsonrpc", "id", "result", "error");
        for (String name : members) {
            JsonNode value = message.get(name);
            if (value != null) {
                out.set(name, value);
            }
        }
        JsonNode error = message.get("error");
        if (error != null && error.isObject()) {
            ObjectNode kept = JsonNodeFactory.instance.objectNode();
            for (String name : new String[] {"code", "message", "data"}) {
                if (error.get(name) != null) {
                    kept.set(name, error.get(name));
                }
            }
            out.set("error", kept);
        }
        return out;
    }

    /**
     * The extent of a line as the codec's parser meets it: the tokens of its first value and the
     * one token after it (which the codec reads to see that nothing follows), up to the last whole
     * token before the first syntax error.
     *
     * @param depth      the deepest nesting, the outermost container counting as one
     * @param nameChars  the longest member name, in chars
     * @param readString the longest string value the codec reads (not one it skips), in chars
     */
    record Extent(int depth, int nameChars, int readString) {
        /**
         * Whether a part the parser must check exceeds one of {@code limits}, so that a limit error
         * must follow: nesting and names are checked as they are read, strings as they are
         * materialized. (Numbers are left out: how the parser counts a number's length, digits
         * or text, is its own.)
         */
        boolean mustExceed(JsonRpcCodec.Limits limits) {
            return depth > limits.maxNestingDepth() || nameChars > limits.maxNameLength()
                    || readString > limits.maxStringLength();
        }
    }

    /** The extent of {@code line}; see {@link Extent}. */
    static Extent measure(byte[] line) {
        Measurer m = new Measurer();
        try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), line)) {
            m.walk(p);
        } catch (JacksonException e) {
            // the extent so far: what the parser met before the syntax error
        }
        return new Extent(m.depth, m.nameChars, m.readString);
    }

    private static final class Measurer {
        int depth;
        int nameChars;
        int readString;
        /** Whether the value being walked belongs to a top-level member that the codec reads. */
        private boolean read;
        private String member;

        void walk(JsonParser p) {
            JsonToken first = p.nextToken();
            boolean object = first == JsonToken.START_OBJECT;
            JsonToken t = first;
            while (t != null) {
                int level = p.streamReadContext().getNestingDepth();
                depth = Math.max(depth, level);
                if (t == JsonToken.PROPERTY_NAME) {
                    nameChars = Math.max(nameChars, p.currentName().length());
                    if (object && level == 1) {
                        member = p.currentName();
                        read = KNOWN.contains(member);
                    }
                } else if (t == JsonToken.VALUE_STRING && object && read
                        && (level == 1 || !Set.of("jsonrpc", "method", "id").contains(member))) {
                    // A container under "jsonrpc", "method" or "id" is skipped; a string there, or anywhere under the others, is read.
                    readString = Math.max(readString, p.getString().length());
                }
                if (level == 0 && (t.isScalarValue() || t.isStructEnd())) {
                    p.nextToken(); // the token after the first value, which the codec reads too
                    depth = Math.max(depth, p.streamReadContext().getNestingDepth());
                    return;
                }
                t = p.nextToken();
            }
        }
    }
}
