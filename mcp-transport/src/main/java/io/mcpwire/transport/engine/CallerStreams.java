package io.mcpwire.transport.engine;

import io.mcpwire.stdio.Wire;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Streams the caller passed in, served as given: nothing is claimed, nothing is closed. They may
 * buffer, so every write is flushed. A read blocked on them cannot be woken: closing the
 * transport does not wait for it (it is a daemon, left behind until the caller's stream ends).
 *
 * @param input  what the client sends
 * @param output what reaches the client
 */
public record CallerStreams(InputStream input, OutputStream output) implements Wire {

    @Override
    public boolean outputBuffered() {
        return true;
    }

    @Override
    public boolean wake() {
        return false; // the caller's streams are theirs to close: nothing here can unblock a read on them
    }

    @Override
    public void release() {
        // the caller keeps the streams
    }
}
