package io.mcpwire.platform.windows;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.TransportClosed;
import io.mcpwire.jsonrpc.TransportListener;
import io.mcpwire.transport.StdioTransport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A server on mcpwire's transport for the real Windows test of the host watch: it writes its pid
 * to the file it is given, answers every request with an empty result, and ends when the transport
 * closes (end of input, or its host's death).
 */
public final class WatchedServer {
    private WatchedServer() {
    }

    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of(args[0]), Long.toString(ProcessHandle.current().pid()), StandardCharsets.UTF_8);
        CountDownLatch closed = new CountDownLatch(1);
        StdioTransport transport = StdioTransport.create();
        transport.start(new TransportListener() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                if (message instanceof JsonRpcRequest request) {
                    try {
                        transport.sendEncoded("{\"jsonrpc\":\"2.0\",\"id\":" + request.id() + ",\"result\":{}}");
                    } catch (IOException e) {
                        transport.close();
                    }
                }
            }

            @Override
            public void onClosed(TransportClosed why) {
                closed.countDown();
            }
        });
        closed.await();
        System.exit(0);
    }
}
