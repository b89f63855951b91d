package io.mcpwire.quarkus;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.stdio.HostWatch;
import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StdioClaim;
import io.mcpwire.transport.StdioTransport;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.annotations.Recorder;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What the extension does as the application's static initialisation begins: on a thread of its
 * own, it loads what the claim and the transport will need (the platform provider and its native
 * library, the JSON codec, the transport's classes), while Quarkus builds its beans on the main thread. The claim itself is
 * still taken whole on the main thread, later ({@link McpwireRecorder#claimBeforeLogging}); it
 * only finds its classes loaded. Not recorded for a native image, whose static initialisation runs
 * at build time.
 */
@Recorder
public class McpwirePrepareRecorder {
    private static final System.Logger LOG = System.getLogger("io.mcpwire.quarkus");

    /** A sample request for the codec's first decode and encode. */
    private static final String SAMPLE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"\"}}";

    /** Starts loading, where mcpwire will serve; returns at once. */
    public void prepareInBackground() {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        Config config = ConfigProvider.getConfig();
        if (!config.getOptionalValue("mcpwire.enabled", Boolean.class).orElse(true)
                || !config.getOptionalValue("quarkus.mcp.server.stdio.enabled", Boolean.class).orElse(true)) {
            return;
        }
        Thread loader = new Thread(() -> prepare(config), "mcpwire-prepare");
        loader.setDaemon(true);
        loader.start();
    }

    private static void prepare(Config config) {
        try {
            StdioClaim.prepare(McpwireSettings.from(name -> config.getOptionalValue(name, String.class)));
            JsonRpcCodec codec = JsonRpcCodec.standard();
            if (codec.decode(SAMPLE) instanceof DecodeResult.Decoded decoded) {
                codec.encodeToString(decoded.message());
            }
            // The transport's classes, on one that never starts: the main thread builds the real one.
            StdioTransport.builder().streams(InputStream.nullInputStream(), OutputStream.nullOutputStream())
                    .hostWatch(HostWatch.OFF).build().close();
        } catch (RuntimeException | LinkageError e) {
            // the claim, on the main thread, meets the same failure and reports it
            LOG.log(Level.DEBUG, "loading ahead of the claim failed: {0}", e.toString());
        }
    }
}
