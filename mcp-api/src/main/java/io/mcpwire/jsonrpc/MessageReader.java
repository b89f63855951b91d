package io.mcpwire.jsonrpc;

import java.util.ArrayDeque;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ContainerNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads one line of UTF-8 JSON into {@link MessageMembers} on Jackson's streaming API, trees
 * included, with the codec's limits enforced by the parser; never throws on bad input.
 */
final class MessageReader {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private MessageReader() {
    }

    /** Decodes {@code bytes[offset, offset + length)}, known to be valid UTF-8. */
    static DecodeResult read(JsonFactory factory, byte[] bytes, int offset, int length) {
        MessageMembers m = new MessageMembers();
        try (JsonParser p = factory.createParser(ObjectReadContext.empty(), bytes, offset, length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return DecodeError.parseError("no JSON value");
            }
            if (first != JsonToken.START_OBJECT) {
                p.skipChildren();
                if (!requireEnd(p)) {
                    return DecodeError.parseError("text after the JSON value");
                }
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
            if (e.getCause() instanceof StreamConstraintsException limit) {
                return DecodeError.invalidRequest("exceeds a decoding limit: " + limit.getOriginalMessage(), m.validId());
            }
            return DecodeError.parseError("not JSON: " + e.getOriginalMessage());
        } catch (NumberFormatException e) {
            // JSON allows any exponent; one beyond even a BigDecimal's range (1e9999999999) is a limit too.
            return DecodeError.invalidRequest("exceeds a decoding limit: a number beyond a BigDecimal's range", m.validId());
        } catch (OutOfMemoryError e) {
            // Within the limits, yet the trees outgrew the heap: a small heap's limit, and what was
            // built is garbage now. Answered like any limit, so that one line never ends the session.
            return DecodeError.invalidRequest("exceeds the memory this server has left to decode a message", m.validId());
        }
        return m.toMessage();
    }

    /** True when nothing but whitespace follows; throws when what follows is not JSON. */
    private static boolean requireEnd(JsonParser p) {
        return p.nextToken() == null;
    }

    private static void readMembers(JsonParser p, MessageMembers m) {
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
                    m.jsonrpc = value == JsonToken.VALUE_STRING ? p.getString() : MessageMembers.BAD;
                    p.skipChildren(); // an object or array here is skipped whole, not read as members
                    break;
                case "method":
                    m.method = value == JsonToken.VALUE_STRING ? p.getString() : MessageMembers.BAD;
                    p.skipChildren();
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

    /**
     * Builds the tree of the value that starts at {@code t}; the parser enforces the nesting limit.
     * A loop over a stack of open containers rather than a recursion: the JIT compiles it as one
     * small method, where a recursive reader would be inlined into itself and compiled at length
     * while a server's first requests wait.
     */
    private static JsonNode readNode(JsonParser p, JsonToken t) {
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
            return scalar(p, t);
        }
        ContainerNode<?> root = t == JsonToken.START_OBJECT ? NODES.objectNode() : NODES.arrayNode();
        ArrayDeque<ContainerNode<?>> outer = new ArrayDeque<>();
        ContainerNode<?> open = root;
        while (true) {
            JsonToken n = p.nextToken();
            if (n == JsonToken.END_OBJECT || n == JsonToken.END_ARRAY) {
                if (outer.isEmpty()) {
                    return root;
                }
                open = outer.pop();
                continue;
            }
            String name = null;
            if (n == JsonToken.PROPERTY_NAME) {
                name = p.currentName();
                n = p.nextToken();
            }
            JsonNode child = switch (n) {
                case START_OBJECT -> NODES.objectNode();
                case START_ARRAY -> NODES.arrayNode();
                default -> scalar(p, n);
            };
            if (open instanceof ObjectNode object) {
                object.set(name, child);
            } else {
                ((ArrayNode) open).add(child);
            }
            if (child instanceof ContainerNode<?> inner) {
                outer.push(open);
                open = inner;
            }
        }
    }

    private static JsonNode scalar(JsonParser p, JsonToken t) {
        switch (t) {
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
                double d = p.getDoubleValue();
                // Beyond a double's range it is kept exact: an infinite double would be written back as a string.
                return Double.isInfinite(d) ? NODES.numberNode(p.getDecimalValue()) : NODES.numberNode(d);
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

    private static void readId(JsonParser p, JsonToken value, MessageMembers m) {
        m.hasId = true;
        Optional<RequestId> id = RequestId.read(p, value);
        if (id.isPresent()) {
            m.id = id.get();
        } else if (value == JsonToken.VALUE_NULL) {
            m.nullId = true;
        } else {
            m.badId = describe(value) + " id";
            p.skipChildren();
        }
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NUMBER_FLOAT -> "a fractional";
            case VALUE_NUMBER_INT -> "an out-of-range integer";
            default -> "an invalid";
        };
    }
}
