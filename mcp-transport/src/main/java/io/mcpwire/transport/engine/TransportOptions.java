package io.mcpwire.transport.engine;

import io.mcpwire.platform.ProcessExits;
import io.mcpwire.stdio.HostWatch;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import java.util.Optional;

/**
 * What a transport was built with, fixed at {@code build()}: the builder may change after.
 *
 * @param processExits   how the host's exit is waited for, where the claim's provider can; polled otherwise
 * @param releaseOnClose whether the close puts the wire back (false for a claim its owner keeps)
 */
public record TransportOptions(JsonRpcCodec codec, int maxMessageBytes, long graceNanos, long outboundQueueBytes,
                        boolean answerDecodeErrors, HostWatch hostWatch, Optional<ProcessExits> processExits, boolean releaseOnClose) {
}
