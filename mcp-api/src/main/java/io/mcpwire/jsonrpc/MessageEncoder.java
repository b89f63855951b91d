package io.mcpwire.jsonrpc;

import java.io.OutputStream;
import tools.jackson.core.JsonGenerator;

/**
 * Encodes message after message onto one stream through one long-lived Jackson generator, for a
 * thread that sends many: unlike {@link JsonRpcCodec#encode(JsonRpcMessage, OutputStream)}, a
 * message costs no generator of its own to build and close. Each message is written whole to the
 * stream before {@link #encode} returns, with nothing between messages (the line terminator is
 * the framing's). A generator that failed mid-message is dropped, so that the next message starts
 * clean. Not thread-safe: one per thread.
 */
public final class MessageEncoder {
    private final JsonRpcCodec codec;
    private final OutputStream out;
    /** The generator over {@code out}, made on first use and again after a failure. */
    private MessageWriter writer;

    MessageEncoder(JsonRpcCodec codec, OutputStream out) {
        this.codec = codec;
        this.out = out;
    }

    /** Writes {@code message} as compact UTF-8 JSON onto the stream, without a line terminator. */
    public void encode(JsonRpcMessage message) {
        MessageWriter w = writer;
        if (w == null) {
            writer = w = codec.writerOnto(out);
        }
        try {
            w.write(message);
            w.flush();
        } catch (RuntimeException | Error e) {
            writer = null; // its generator stopped mid-message
            throw e;
        }
    }
}
