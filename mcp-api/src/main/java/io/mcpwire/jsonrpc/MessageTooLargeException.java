package io.mcpwire.jsonrpc;

import java.io.IOException;

/** An outgoing message whose encoding exceeds the transport's size limit; nothing was sent. */
public final class MessageTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long size;
    private final long limit;

    /** Creates the exception for a message of {@code size} bytes against {@code limit}. */
    public MessageTooLargeException(long size, long limit) {
        super("outgoing message of " + size + " bytes exceeds the limit of " + limit
                + " bytes; it was not sent");
        this.size = size;
        this.limit = limit;
    }

    /** The encoded size, in bytes. */
    public long size() {
        return size;
    }

    /** The limit, in bytes. */
    public long limit() {
        return limit;
    }
}
