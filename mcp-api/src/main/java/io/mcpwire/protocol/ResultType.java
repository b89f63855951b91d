package io.mcpwire.protocol;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** What kind of result a modern-era answer is, from its {@code resultType} member. */
public enum ResultType {
    /** The request is done; the result holds what was asked for. */
    COMPLETE("complete"),
    /** The server needs more input first; the client retries the request with it. */
    INPUT_REQUIRED("input_required");

    /** The member of a result that names its type. */
    public static final String MEMBER = "resultType";

    private final String wire;

    ResultType(String wire) {
        this.wire = wire;
    }

    /** As the wire spells it. */
    public String wire() {
        return wire;
    }

    /**
     * The type of {@code result}: {@link #COMPLETE} when the member is absent (as from a legacy
     * server), empty when it holds a value this SDK does not know, which a client must refuse.
     */
    public static Optional<ResultType> of(JsonNode result) {
        JsonNode member = result == null ? null : result.get(MEMBER);
        if (member == null || member.isNull()) {
            return Optional.of(COMPLETE);
        }
        for (ResultType t : values()) {
            if (member.isString() && t.wire.equals(member.stringValue())) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
