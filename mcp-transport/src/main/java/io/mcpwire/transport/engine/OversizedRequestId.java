package io.mcpwire.transport.engine;

import io.mcpwire.jsonrpc.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Finds the id of a JSON-RPC request in a line too long to hold, as its bytes stream past, so
 * that the error that answers the line can carry the id the client waits on. It keeps a few
 * counters and at most {@value #MAX_ID_BYTES} bytes of the id, whatever the line's length, and
 * looks only at the top-level object's members: an {@code "id"} inside {@code params} is not the
 * request's. The id counts only when the line is a request (it has a top-level {@code "method"});
 * a response or a notification is answered with a null id, as JSON-RPC asks when none can be read.
 * Not thread-safe: the framer's reading thread.
 */
final class OversizedRequestId {
    /** The longest id kept, in bytes of JSON; a longer one is not read. */
    static final int MAX_ID_BYTES = 1024;
    private static final int MAX_KEY_BYTES = 8;

    /** Where the scan is in the top-level object. */
    private enum At {
        /** Before the first byte that is not white space. */
        START,
        /** Inside the top-level object, between members. */
        MEMBERS,
        /** Inside a member's value; {@code depth} says how deep. */
        VALUE,
        /** The top level is not an object, or it has ended: nothing more is read. */
        DONE
    }

    private At at = At.START;
    private int depth; // open objects and arrays, the top-level object included
    private boolean inString;
    private boolean escaped;
    private boolean key;          // the string being read is a top-level member's name
    private final byte[] keyBytes = new byte[MAX_KEY_BYTES];
    private int keyLength;        // -1 once the name is longer than any we look for
    private String lastKey = "";
    private boolean capturing;    // the value being read is the top-level "id"
    private final byte[] id = new byte[MAX_ID_BYTES];
    private int idLength;         // -1 once the id is longer than MAX_ID_BYTES
    private boolean idComplete;
    private boolean sawId;
    private boolean hasMethod;
    /** Whether the value being read has ended in white space: a scalar that goes on after it is no JSON. */
    private boolean valueSpaced;
    /** Whether the line cannot be a request the codec reads: an "id" twice, or bytes after the object. */
    private boolean spoiled;

    /** Reads {@code bytes[from, to)}, the next bytes of the line. */
    void feed(byte[] bytes, int from, int to) {
        for (int i = from; i < to && !spoiled; i++) {
            step(bytes[i]);
        }
    }

    /** The request's id, when the line was a request whose id could be read whole, and nothing else in it says otherwise. */
    Optional<RequestId> id() {
        if (spoiled || !hasMethod || !idComplete || idLength <= 0) {
            return Optional.empty();
        }
        return parse(id, idLength);
    }

    private void step(byte b) {
        if (inString) {
            string(b);
            return;
        }
        switch (at) {
            case START -> {
                if (b == '{') {
                    at = At.MEMBERS;
                    depth = 1;
                } else if (!whiteSpace(b)) {
                    at = At.DONE;
                }
            }
            case MEMBERS -> members(b);
            case VALUE -> value(b);
            case DONE -> spoiled |= depth == 0 && !whiteSpace(b); // after the object: not one message
        }
    }

    private void members(byte b) {
        if (b == '"') {
            inString = true;
            key = true;
            keyLength = 0;
        } else if (b == ':') {
            at = At.VALUE;
            spoiled |= lastKey.equals("id") && sawId; // a second "id": the codec refuses the line
            sawId |= lastKey.equals("id");
            capturing = lastKey.equals("id") && !idComplete;
            valueSpaced = false;
            if (capturing) {
                idLength = 0;
            }
            hasMethod |= lastKey.equals("method");
        } else if (b == '}') {
            at = At.DONE;
            depth = 0;
        }
    }

    private void value(byte b) {
        if (depth == 1 && (b == ',' || b == '}')) {
            endValue();
            at = b == '}' ? At.DONE : At.MEMBERS;
            if (b == '}') {
                depth = 0;
            }
            return;
        }
        if (capturing && depth == 1) {
            if (whiteSpace(b)) {
                valueSpaced = idLength > 0;
                return;
            }
            if (valueSpaced) {
                capturing = false; // "1 2" or "- 5": no id the codec would read
                idLength = -1;
                idComplete = false;
                return;
            }
        }
        if (b == '{' || b == '[') {
            depth++;
            capturing = false; // an object or array is no id
        } else if (b == '}' || b == ']') {
            depth--;
        } else if (b == '"') {
            inString = true;
            key = false;
        }
        if (capturing && (depth > 1 || !whiteSpace(b))) {
            keep(b);
        }
    }

    private void string(byte b) {
        if (key) {
            if (!escaped && b == '"') {
                inString = false;
                lastKey = keyLength < 0 ? "" : new String(keyBytes, 0, keyLength, StandardCharsets.UTF_8);
            } else if (keyLength >= 0) {
                keyLength = keyLength < MAX_KEY_BYTES ? keyLength : -1;
                if (keyLength >= 0) {
                    keyBytes[keyLength++] = b;
                }
            }
        } else {
            if (capturing) {
                keep(b);
            }
            if (!escaped && b == '"') {
                inString = false;
            }
        }
        escaped = !escaped && b == '\\';
    }

    private void keep(byte b) {
        if (idLength >= 0 && idLength < MAX_ID_BYTES) {
            id[idLength++] = b;
        } else {
            idLength = -1;
        }
    }

    private void endValue() {
        if (capturing) {
            idComplete = idLength > 0;
            capturing = false;
        }
    }

    private static boolean whiteSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /** A string or an integer, as JSON-RPC ids are; anything else reads as no id. */
    private static Optional<RequestId> parse(byte[] token, int length) {
        try {
            JsonNode node = JsonMapper.shared().readTree(token, 0, length);
            if (node.isString()) {
                return Optional.of(RequestId.of(node.stringValue()));
            }
            if (node.isIntegralNumber() && node.canConvertToLong()) {
                return Optional.of(RequestId.of(node.longValue()));
            }
        } catch (RuntimeException e) {
            // not JSON after all: no id
        }
        return Optional.empty();
    }
}
