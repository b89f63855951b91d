package io.mcpwire.jsonrpc;

import java.util.Objects;

/** What decoding one line gives: a {@link Decoded} message or a {@link DecodeError}. */
public sealed interface DecodeResult permits DecodeResult.Decoded, DecodeError {

    /**
     * A line that decoded into a valid message.
     *
     * @param message the message, never null
     */
    record Decoded(JsonRpcMessage message) implements DecodeResult {
        /** Validates the member. */
        public Decoded {
            Objects.requireNonNull(message, "message");
        }
    }
}
