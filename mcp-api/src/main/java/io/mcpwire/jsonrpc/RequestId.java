package io.mcpwire.jsonrpc;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * A JSON-RPC request id: a string or an integer. JSON-RPC also allows {@code null}, but only
 * on an error response whose request id could not be read; there it is a Java {@code null}.
 */
public sealed interface RequestId permits RequestId.StringId, RequestId.NumberId {

    /** Returns a string id. */
    static RequestId of(String value) {
        return new StringId(value);
    }

    /** Returns an integer id. */
    static RequestId of(long value) {
        return new NumberId(value);
    }

    /**
     * The id that {@code p}'s current token, {@code value}, holds, by the rule this codec reads ids
     * with: a string, or an integer within 64 bits. Any other token (null, a fraction, a larger
     * integer, a boolean, an object or an array) holds none; the parser is not moved past it.
     */
    static Optional<RequestId> read(JsonParser p, JsonToken value) {
        if (value == JsonToken.VALUE_STRING) {
            return Optional.of(of(p.getString()));
        }
        if (value == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return Optional.of(of(p.getLongValue()));
        }
        return Optional.empty();
    }

    /** A string id. */
    record StringId(String value) implements RequestId {
        /** Creates a string id; the value must not be null. */
        public StringId {
            Objects.requireNonNull(value, "value");
        }

        // equals and hashCode are written out in both ids: a record's own are bootstrapped at
        // their first call, some 20 ms of the first request's answer.
        @Override
        public boolean equals(Object o) {
            return o instanceof StringId other && other.value.equals(value);
        }

        @Override
        public int hashCode() {
            return value.hashCode();
        }

        @Override
        public String toString() {
            return '"' + value + '"';
        }
    }

    /** An integer id (JSON-RPC allows numbers; fractions are refused). */
    record NumberId(long value) implements RequestId {
        @Override
        public boolean equals(Object o) {
            return o instanceof NumberId other && other.value == value;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(value);
        }

        @Override
        public String toString() {
            return Long.toString(value);
        }
    }
}
