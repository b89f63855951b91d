package io.mcpwire.jsonrpc;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.POJONode;

/**
 * Encodes JSON-RPC messages as single lines of UTF-8 and decodes lines back.
 *
 * <p>Encoding writes one message as compact JSON with no raw newline inside (JSON escapes
 * control characters in strings), and without the line terminator, which is the framing's job.
 *
 * <p>Decoding never throws on bad input: it returns a {@link DecodeError} that carries the
 * JSON-RPC code and, when it could be read, the request id, so that a server can answer it.
 * <ul>
 *   <li>{@code -32700} (parse error, null id): not valid UTF-8, not JSON, empty, or JSON
 *       followed by anything but whitespace;</li>
 *   <li>{@code -32600} (invalid request): JSON that is not one valid JSON-RPC 2.0 message
 *       (a batch array, a wrong or missing {@code jsonrpc}, a method that is not a string, an id
 *       that is not a string or an integer, both or neither of {@code result} and {@code error},
 *       a duplicated top-level member, ...), and JSON that exceeds one of the {@link Limits}.
 *       The id is recovered whenever it was read and valid.</li>
 * </ul>
 * Unknown top-level members are ignored. Instances are thread-safe.
 */
public final class JsonRpcCodec {

    /**
     * Bounds on hostile input, enforced while parsing (Jackson's {@code StreamReadConstraints}),
     * so that a deep or huge document is a decode error, never a stack overflow or a crash.
     *
     * @param maxNestingDepth the deepest nesting of objects and arrays, the message itself
     *                        counting as one
     * @param maxStringLength the longest string value, in chars
     * @param maxNumberLength the longest number, in chars
     * @param maxNameLength   the longest member name, in chars
     */
    public record Limits(int maxNestingDepth, int maxStringLength, int maxNumberLength, int maxNameLength) {
        /** Depth 256, strings of 16 MiB, numbers of 1,000 chars, member names of 50,000 chars. */
        public static final Limits DEFAULT = new Limits(256, 16 * 1024 * 1024, 1000, 50_000);

        /** Validates the bounds. */
        public Limits {
            if (maxNestingDepth < 1 || maxStringLength < 1 || maxNumberLength < 1 || maxNameLength < 1) {
                throw new IllegalArgumentException("limits must be positive: " + this);
            }
        }
    }

    private static final JsonRpcCodec DEFAULT = new JsonRpcCodec(Limits.DEFAULT);

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final JsonFactory factory;
    private final Limits limits;
    private volatile JsonMapper mapper;

    /** Returns a codec with the given limits. */
    public JsonRpcCodec(Limits limits) {
        this.limits = limits;
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxNestingDepth())
                .maxStringLength(limits.maxStringLength())
                .maxNumberLength(limits.maxNumberLength())
                .maxNameLength(limits.maxNameLength())
                .build();
        // Trees are read and written here on the streaming API: building a databind mapper costs
        // a few hundred milliseconds of start-up, which a stdio server pays before its first answer.
        this.factory = JsonFactory.builder()
                .streamReadConstraints(constraints)
                // Parsers and generators are made per message on a few long-lived threads: a
                // thread-local buffer pool costs nothing per message, unlike the default deque pool.
                .recyclerPool(JsonRecyclerPools.threadLocalPool())
                // encode(message, out) writes into the caller's stream and leaves it open.
                .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                .build();
    }

    /** Returns the shared codec with {@link Limits#DEFAULT}. */
    public static JsonRpcCodec standard() {
        return DEFAULT;
    }

    /** The limits this codec enforces. */
    public Limits limits() {
        return limits;
    }

    /**
     * A Jackson mapper with this codec's limits, for converting {@code params} and results to and
     * from Java objects. Built on first use: the codec itself does not need it.
     */
    public JsonMapper mapper() {
        JsonMapper m = mapper;
        if (m == null) {
            synchronized (this) {
                m = mapper;
                if (m == null) {
                    mapper = m = JsonMapper.builder(factory).build();
                }
            }
        }
        return m;
    }

    // ---------------------------------------------------------------- encoding

    /** Encodes one message as UTF-8 JSON, without a line terminator. */
    public byte[] encode(JsonRpcMessage message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        encode(message, out);
        return out.toByteArray();
    }

    /** Encodes one message as UTF-8 JSON onto {@code out}, without a line terminator; leaves {@code out} open. */
    public void encode(JsonRpcMessage message, OutputStream out) {
        try (JsonGenerator g = factory.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            g.writeStringProperty("jsonrpc", JsonRpcMessage.VERSION);
            if (message instanceof JsonRpcRequest) {
                JsonRpcRequest r = (JsonRpcRequest) message;
                writeId(g, r.id());
                g.writeStringProperty("method", r.method());
                writeTree(g, "params", r.params());
            } else if (message instanceof JsonRpcNotification) {
                JsonRpcNotification n = (JsonRpcNotification) message;
                g.writeStringProperty("method", n.method());
                writeTree(g, "params", n.params());
            } else if (message instanceof JsonRpcResult) {
                JsonRpcResult r = (JsonRpcResult) message;
                writeId(g, r.id());
                g.writeName("result");
                writeNode(g, r.result());
            } else {
                JsonRpcError e = (JsonRpcError) message;
                writeId(g, e.id());
                g.writeName("error");
                g.writeStartObject();
                g.writeNumberProperty("code", e.error().code());
                g.writeStringProperty("message", e.error().message());
                writeTree(g, "data", e.error().data());
                g.writeEndObject();
            }
            g.writeEndObject();
        }
    }

    /** Encodes one message as a Java string, for logs and tests. */
    public String encodeToString(JsonRpcMessage message) {
        return new String(encode(message), StandardCharsets.UTF_8);
    }

    private static void writeId(JsonGenerator g, RequestId id) {
        g.writeName("id");
        if (id == null) {
            g.writeNull();
        } else if (id instanceof RequestId.NumberId) {
            g.writeNumber(((RequestId.NumberId) id).value());
        } else {
            g.writeString(((RequestId.StringId) id).value());
        }
    }

    private void writeTree(JsonGenerator g, String name, JsonNode node) {
        if (node != null) {
            g.writeName(name);
            writeNode(g, node);
        }
    }

    /** Writes a tree with the streaming API; only a POJO node needs the databind mapper. */
    private void writeNode(JsonGenerator g, JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT:
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> e : node.properties()) {
                    g.writeName(e.getKey());
                    writeNode(g, e.getValue());
                }
                g.writeEndObject();
                break;
            case ARRAY:
                g.writeStartArray();
                for (JsonNode child : node) {
                    writeNode(g, child);
                }
                g.writeEndArray();
                break;
            case STRING:
                g.writeString(node.stringValue());
                break;
            case NUMBER:
                writeNumber(g, node);
                break;
            case BOOLEAN:
                g.writeBoolean(node.booleanValue());
                break;
            case BINARY:
                g.writeBinary(node.binaryValue());
                break;
            case POJO:
                mapper().writeValue(g, ((POJONode) node).getPojo());
                break;
            default: // NULL, MISSING
                g.writeNull();
        }
    }

    private static void writeNumber(JsonGenerator g, JsonNode n) {
        switch (n.numberType()) {
            case INT:
                g.writeNumber(n.intValue());
                break;
            case LONG:
                g.writeNumber(n.longValue());
                break;
            case BIG_INTEGER:
                g.writeNumber(n.bigIntegerValue());
                break;
            case FLOAT:
                g.writeNumber(n.floatValue());
                break;
            case BIG_DECIMAL:
                g.writeNumber(n.decimalValue());
                break;
            default:
                g.writeNumber(n.doubleValue());
        }
    }

    // ---------------------------------------------------------------- decoding

    /** Decodes one line given as a string. */
    public DecodeResult decode(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return decode(bytes, 0, bytes.length);
    }

    /** Decodes one line (without its terminator) from {@code bytes[offset, offset + length)}. */
    public DecodeResult decode(byte[] bytes, int offset, int length) {
        int invalid = Utf8.firstInvalid(bytes, offset, length);
        if (invalid >= 0) {
            return DecodeError.parseError("invalid UTF-8 at byte " + invalid);
        }
        Members m = new Members();
        try (JsonParser p = factory.createParser(ObjectReadContext.empty(), bytes, offset, length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return DecodeError.parseError("no JSON value");
            }
            if (first != JsonToken.START_OBJECT) {
                p.skipChildren();
                requireEnd(p);
                return DecodeError.invalidRequest(first == JsonToken.START_ARRAY
                        ? "batches are not supported" : "a message must be a JSON object", null);
            }
            readMembers(p, m);
            if (!requireEnd(p)) {
                return DecodeError.parseError("text after the JSON value");
            }
        } catch (StreamConstraintsException e) {
            return DecodeError.invalidRequest("exceeds a decoding limit: " + e.getOriginalMessage(), m.validId());
        } catch (JacksonException e) {
            if (e.getCause() instanceof StreamConstraintsException) {
                return DecodeError.invalidRequest("exceeds a decoding limit: "
                        + ((StreamConstraintsException) e.getCause()).getOriginalMessage(), m.validId());
            }
            return DecodeError.parseError("not JSON: " + e.getOriginalMessage());
        }
        return m.toMessage();
    }

    /** True when nothing but whitespace follows; throws when what follows is not JSON. */
    private static boolean requireEnd(JsonParser p) {
        return p.nextToken() == null;
    }

    private static void readMembers(JsonParser p, Members m) {
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (!m.seen(name)) {
                p.skipChildren();
                continue;
            }
            switch (name) {
                case "jsonrpc":
                    m.jsonrpc = value == JsonToken.VALUE_STRING ? p.getString() : BAD;
                    break;
                case "method":
                    m.method = value == JsonToken.VALUE_STRING ? p.getString() : BAD;
                    break;
                case "id":
                    readId(p, value, m);
                    break;
                case "params":
                    m.params = readNode(p, value);
                    break;
                case "result":
                    m.result = readNode(p, value);
                    break;
                case "error":
                    m.error = readNode(p, value);
                    break;
                default:
                    p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new IllegalStateException("unexpected token " + t); // the parser rejects this first
        }
    }

    /** Builds the tree of the value that starts at {@code t}; the parser enforces the nesting limit. */
    private static JsonNode readNode(JsonParser p, JsonToken t) {
        switch (t) {
            case START_OBJECT: {
                ObjectNode object = NODES.objectNode();
                for (JsonToken n = p.nextToken(); n == JsonToken.PROPERTY_NAME; n = p.nextToken()) {
                    String name = p.currentName();
                    object.set(name, readNode(p, p.nextToken()));
                }
                return object;
            }
            case START_ARRAY: {
                ArrayNode array = NODES.arrayNode();
                for (JsonToken n = p.nextToken(); n != JsonToken.END_ARRAY; n = p.nextToken()) {
                    array.add(readNode(p, n));
                }
                return array;
            }
            case VALUE_STRING:
                return NODES.stringNode(p.getString());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new IllegalStateException("unexpected token " + t); // the parser rejects this first
        }
    }

    private static void readId(JsonParser p, JsonToken value, Members m) {
        m.hasId = true;
        if (value == JsonToken.VALUE_STRING) {
            m.id = RequestId.of(p.getString());
        } else if (value == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            m.id = RequestId.of(p.getLongValue());
        } else if (value == JsonToken.VALUE_NULL) {
            m.nullId = true;
        } else {
            m.badId = describe(value) + " id";
            p.skipChildren();
        }
    }

    private static String describe(JsonToken t) {
        switch (t) {
            case START_OBJECT: return "an object";
            case START_ARRAY: return "an array";
            case VALUE_TRUE:
            case VALUE_FALSE: return "a boolean";
            case VALUE_NUMBER_FLOAT: return "a fractional";
            case VALUE_NUMBER_INT: return "an out-of-range integer";
            default: return "an invalid";
        }
    }

    /** A marker for a member present with the wrong JSON type. */
    private static final String BAD = new String("<not a string>");

    /** The top-level members read so far; enough to recover the id after a failure. */
    private static final class Members {
        String jsonrpc;
        String method;
        boolean hasId;
        boolean nullId;
        RequestId id;
        String badId;
        JsonNode params;
        JsonNode result;
        JsonNode error;
        String duplicate;
        private int seenMask;

        /** Records a member name; false for names this codec does not read. */
        boolean seen(String name) {
            int bit;
            switch (name) {
                case "jsonrpc": bit = 1; break;
                case "method": bit = 2; break;
                case "id": bit = 4; break;
                case "params": bit = 8; break;
                case "result": bit = 16; break;
                case "error": bit = 32; break;
                default: return false;
            }
            if ((seenMask & bit) != 0 && duplicate == null) {
                duplicate = name;
            }
            seenMask |= bit;
            return true;
        }

        RequestId validId() {
            return duplicate == null || !duplicate.equals("id") ? id : null;
        }

        DecodeResult toMessage() {
            RequestId rid = validId();
            if (duplicate != null) {
                return DecodeError.invalidRequest("duplicate member \"" + duplicate + "\"", rid);
            }
            if (jsonrpc == null) {
                return DecodeError.invalidRequest("missing \"jsonrpc\": \"2.0\"", rid);
            }
            if (!JsonRpcMessage.VERSION.equals(jsonrpc)) {
                return DecodeError.invalidRequest("\"jsonrpc\" must be \"2.0\"", rid);
            }
            if (badId != null) {
                return DecodeError.invalidRequest(badId + " is not allowed (string or integer)", null);
            }
            if (method != null) {
                return toCall(rid);
            }
            return toResponse(rid);
        }

        private DecodeResult toCall(RequestId rid) {
            if (method == BAD) {
                return DecodeError.invalidRequest("\"method\" must be a string", rid);
            }
            if (result != null || error != null) {
                return DecodeError.invalidRequest("a request must not carry \"result\" or \"error\"", rid);
            }
            if (params != null && !params.isObject() && !params.isArray()) {
                return DecodeError.invalidRequest("\"params\" must be an object or an array", rid);
            }
            if (nullId) {
                return DecodeError.invalidRequest("a request id must not be null", null);
            }
            JsonRpcMessage msg = hasId ? new JsonRpcRequest(id, method, params) : new JsonRpcNotification(method, params);
            return new DecodeResult.Decoded(msg);
        }

        private DecodeResult toResponse(RequestId rid) {
            if (result == null && error == null) {
                return DecodeError.invalidRequest(params != null || !hasId
                        ? "missing \"method\"" : "a response needs \"result\" or \"error\"", rid);
            }
            if (result != null && error != null) {
                return DecodeError.invalidRequest("a response must not carry both \"result\" and \"error\"", rid);
            }
            if (!hasId) {
                return DecodeError.invalidRequest("a response needs an \"id\"", null);
            }
            if (result != null) {
                if (nullId) {
                    return DecodeError.invalidRequest("a result's id must not be null", null);
                }
                return new DecodeResult.Decoded(new JsonRpcResult(id, result));
            }
            return toError(rid);
        }

        private DecodeResult toError(RequestId rid) {
            if (!error.isObject()) {
                return DecodeError.invalidRequest("\"error\" must be an object", rid);
            }
            JsonNode code = error.get("code");
            JsonNode message = error.get("message");
            if (code == null || !code.isIntegralNumber() || !code.canConvertToInt()) {
                return DecodeError.invalidRequest("\"error.code\" must be an integer", rid);
            }
            if (message == null || !message.isString()) {
                return DecodeError.invalidRequest("\"error.message\" must be a string", rid);
            }
            JsonRpcError.ErrorObject eo = new JsonRpcError.ErrorObject(code.intValue(), message.stringValue(), error.get("data"));
            return new DecodeResult.Decoded(new JsonRpcError(id, eo));
        }
    }
}
