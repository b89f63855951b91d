package io.mcpwire.stdio.engine;

import static io.mcpwire.platform.PlatformDescriptors.STDIN;
import static io.mcpwire.platform.PlatformDescriptors.STDOUT;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The endpoints a claim serves the wire through, by fd (0, 1): what both claim wires share. */
final class ServedStreams {
    private final Map<Integer, Endpoint> endpoints = new TreeMap<>();

    void put(int fd, Endpoint endpoint) {
        endpoints.put(fd, endpoint);
    }

    Set<Integer> fds() {
        return endpoints.keySet();
    }

    /** What the client sends; {@link IllegalStateException} when stdin was not claimed. */
    InputStream input() {
        return served(STDIN, "stdin").inputStream();
    }

    /** What reaches the client; {@link IllegalStateException} when stdout was not claimed. */
    OutputStream output() {
        return served(STDOUT, "stdout").outputStream();
    }

    private Endpoint served(int fd, String what) {
        Endpoint e = endpoints.get(fd);
        if (e == null) {
            throw new IllegalStateException(what + " was not claimed");
        }
        return e;
    }

    /** Wakes every endpoint: later calls fail, pending ones are unblocked where they can be. */
    void wake() {
        endpoints.values().forEach(Endpoint::wake);
    }

    /** Shuts {@code fd}'s endpoint down; true when no call is left on it (or it is not served). */
    boolean shutAndAwaitIdle(int fd, long timeoutMillis) {
        Endpoint e = endpoints.get(fd);
        return e == null || e.shutAndAwaitIdle(timeoutMillis);
    }
}
