package io.mcpwire.transport.engine;

import io.mcpwire.stdio.Wire;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Streams the caller passed in, served as given: nothing is claimed, nothing is closed. They may
 * buffer, so every write is flushed. A read blocked on them cannot be woken, but the join that
 * closing allows it is worth having: such streams usually end with their input.
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
        return true; // the caller's streams are theirs to close; their reader is given the join time
    }

    @Override
    public void release() {
        // the caller keeps the streams
    }
}
