package io.mcpwire.examples.claimonly;

import io.mcpwire.stdio.StdioClaim;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.FilterOutputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The claim alone, under another transport: an official SDK 0.17 server on the SDK's own stdio
 * transport, which is handed the claim's streams instead of {@code System.in} and
 * {@code System.out}. Its {@code noisy} tool prints to {@code System.out} and starts an
 * {@code inheritIO()} child that writes to stdout; neither reaches the client. Nothing of Jackson 3
 * is on its path: {@code mcpwire-stdio} needs the provider SPI and {@code java.base} alone.
 */
public final class ClaimOnlyServer {
    private ClaimOnlyServer() {
    }

    /** Serves until end of input, then puts the standard streams back. */
    public static void main(String[] args) throws InterruptedException {
        StdioClaim claim = StdioClaim.acquire(); // first, before anything prints
        CountDownLatch ended = new CountDownLatch(1);
        McpJsonMapper json = McpJsonMapper.getDefault();
        QuietOutput output = new QuietOutput(claim.output());
        StdioServerTransportProvider transport = new StdioServerTransportProvider(json,
                new EndSignallingInput(claim.input(), ended), output);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("claim-only", "1")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(SyncToolSpecification.builder()
                        .tool(Tool.builder().name("noisy").description("prints to stdout, and starts a child that does")
                                .inputSchema(json, "{\"type\":\"object\"}").build())
                        .callHandler((exchange, request) -> CallToolResult.builder().addTextContent(noisy()).build())
                        .build())
                .build();
        ended.await();
        // The SDK's transport does not say when its last answer is written (mcpwire's own transport
        // does, and the bridge waits for it): here the answers owed are given until the output has
        // been quiet for half a second, five seconds at most.
        output.awaitQuiet(TimeUnit.MILLISECONDS.toNanos(500), TimeUnit.SECONDS.toNanos(5));
        server.closeGracefully();
        claim.close();
    }

    private static String noisy() {
        System.out.println("claim-only: println from a tool");
        try {
            Process child = new ProcessBuilder(childCommand()).inheritIO().start();
            return "the child exited " + child.waitFor();
        } catch (IOException e) {
            return "the child could not start: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static String[] childCommand() {
        return System.getProperty("os.name").startsWith("Windows")
                ? new String[] {"cmd", "/c", "echo claim-only: a child's stdout"}
                : new String[] {"sh", "-c", "echo claim-only: a child\\'s stdout"};
    }

    /** The claim's input, which says when the client has closed its end. */
    private static final class EndSignallingInput extends FilterInputStream {
        private final CountDownLatch ended;

        EndSignallingInput(InputStream in, CountDownLatch ended) {
            super(in);
            this.ended = ended;
        }

        @Override
        public int read() throws IOException {
            return atEnd(super.read());
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return atEnd(super.read(b, off, len));
        }

        private int atEnd(int n) {
            if (n < 0) {
                ended.countDown();
            }
            return n;
        }
    }

    /** The claim's output, which says when it was last written. */
    private static final class QuietOutput extends FilterOutputStream {
        private volatile long lastWrite = System.nanoTime();

        QuietOutput(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            lastWrite = System.nanoTime();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            lastWrite = System.nanoTime();
        }

        /** Waits until nothing was written for {@code quietNanos}, or {@code limitNanos} passed. */
        void awaitQuiet(long quietNanos, long limitNanos) throws InterruptedException {
            long start = System.nanoTime();
            while (System.nanoTime() - lastWrite < quietNanos && System.nanoTime() - start < limitNanos) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
    }
}
