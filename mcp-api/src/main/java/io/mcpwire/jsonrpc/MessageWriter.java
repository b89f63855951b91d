package io.mcpwire.jsonrpc;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.POJONode;

/**
 * Writes one message as compact JSON on Jackson's streaming API, trees included, so that
 * encoding needs no databind mapper (only a POJO node inside a tree does, built on first use).
 */
final class MessageWriter {
    private final JsonGenerator g;
    /** The codec, whose databind mapper writes a POJO node; asked only for one. */
    private final JsonRpcCodec codec;

    MessageWriter(JsonGenerator g, JsonRpcCodec codec) {
        this.g = g;
        this.codec = codec;
    }

    /** Hands what the generator holds on to its stream. */
    void flush() {
        g.flush();
    }

    /** Writes {@code message} as one JSON object. */
    void write(JsonRpcMessage message) {
        g.writeStartObject();
        g.writeStringProperty("jsonrpc", JsonRpcMessage.VERSION);
        if (message instanceof JsonRpcRequest r) {
            writeId(r.id());
            g.writeStringProperty("method", r.method());
            writeTree("params", r.params());
        } else if (message instanceof JsonRpcNotification n) {
            g.writeStringProperty("method", n.method());
            writeTree("params", n.params());
        } else if (message instanceof JsonRpcResult r) {
            writeId(r.id());
            g.writeName("result");
            writeNode(r.result());
        } else if (message instanceof JsonRpcError e) {
            writeId(e.id());
            g.writeName("error");
            g.writeStartObject();
            g.writeNumberProperty("code", e.error().code());
            g.writeStringProperty("message", e.error().message());
            writeTree("data", e.error().data());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private void writeId(RequestId id) {
        g.writeName("id");
        if (id == null) {
            g.writeNull();
        } else if (id instanceof RequestId.NumberId n) {
            g.writeNumber(n.value());
        } else if (id instanceof RequestId.StringId str) {
            g.writeString(str.value());
        }
    }

    private void writeTree(String name, JsonNode node) {
        if (node != null) {
            g.writeName(name);
            writeNode(node);
        }
    }

    /**
     * Writes a tree with the streaming API; only a POJO node needs the databind mapper. A loop over
     * a stack of open containers rather than a recursion, for the reason {@code MessageReader} gives.
     */
    private void writeNode(JsonNode root) {
        if (!root.isContainer()) {
            writeScalar(root);
            return;
        }
        ArrayDeque<Open> opened = new ArrayDeque<>();
        opened.push(begin(root));
        while (!opened.isEmpty()) {
            Open top = opened.peek();
            if (!top.members().hasNext()) {
                opened.pop();
                if (top.object()) {
                    g.writeEndObject();
                } else {
                    g.writeEndArray();
                }
                continue;
            }
            JsonNode value;
            if (top.object()) {
                Map.Entry<?, ?> property = (Map.Entry<?, ?>) top.members().next();
                g.writeName((String) property.getKey());
                value = (JsonNode) property.getValue();
            } else {
                value = (JsonNode) top.members().next();
            }
            if (value.isContainer()) {
                opened.push(begin(value));
            } else {
                writeScalar(value);
            }
        }
    }

    /** A container being written: whether it is an object, and its members still to write. */
    private record Open(boolean object, Iterator<?> members) {
    }

    private Open begin(JsonNode container) {
        if (container.isObject()) {
            g.writeStartObject();
            return new Open(true, container.properties().iterator());
        }
        g.writeStartArray();
        return new Open(false, container.iterator());
    }

    private void writeScalar(JsonNode node) {
        switch (node.getNodeType()) {
            case STRING:
                g.writeString(node.stringValue());
                break;
            case NUMBER:
                writeNumber(node);
                break;
            case BOOLEAN:
                g.writeBoolean(node.booleanValue());
                break;
            case BINARY:
                g.writeBinary(node.binaryValue());
                break;
            case POJO:
                codec.mapper().writeValue(g, ((POJONode) node).getPojo());
                break;
            default: // NULL, MISSING
                g.writeNull();
        }
    }

    private void writeNumber(JsonNode n) {
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
}
