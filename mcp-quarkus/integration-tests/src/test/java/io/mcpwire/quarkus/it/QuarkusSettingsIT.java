package io.mcpwire.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.JsonRpcResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mcpwire's settings reach the claim and the transport through Quarkus' configuration: a system
 * property, an environment variable and {@code application.properties} alike; a bad value stops
 * the start naming the setting; {@code mcpwire.enabled=false} leaves Quarkus MCP's own transport, faults and all.
 */
class QuarkusSettingsIT {
    private static final String NOISY = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"noisy\",\"arguments\":{}}}";
    private static final String PRINT = "quarkus-it: println from a tool";

    @TempDir
    Path dir;

    /** Runs the noisy tool once under {@code builder}; the stray output, which must not be on stderr, is in {@code stray}. */
    private void strayOutputLandsIn(Path stray, ProcessBuilder builder) throws Exception {
        try (QuarkusApp.Running app = QuarkusApp.start(builder)) {
            app.initialize();
            app.send(NOISY);
            assertTrue(app.next() instanceof JsonRpcResult, "the noisy tool answered");
            app.closeInput();
            assertEquals(0, app.awaitExit(), app::stderr);
            assertFalse(app.stderr().contains(PRINT), "the print went to the file, not stderr:\n" + app.stderr());
        }
        assertTrue(Files.readString(stray, StandardCharsets.UTF_8).contains(PRINT), "the print is in " + stray);
    }

    @Test
    void aSystemPropertySetsWhereStrayOutputGoes() throws Exception {
        Path stray = dir.resolve("stray.log");
        strayOutputLandsIn(stray, new ProcessBuilder(QuarkusApp.command("-Dmcpwire.stray-output=" + stray)));
    }

    @Test
    void anEnvironmentVariableSetsWhereStrayOutputGoes() throws Exception {
        Path stray = dir.resolve("stray.log");
        ProcessBuilder builder = new ProcessBuilder(QuarkusApp.command());
        builder.environment().put("MCPWIRE_STRAY_OUTPUT", stray.toString());
        strayOutputLandsIn(stray, builder);
    }

    @Test
    void applicationPropertiesSetWhereStrayOutputGoes() throws Exception {
        Path stray = dir.resolve("stray.log");
        Files.createDirectories(dir.resolve("config"));
        // Quarkus reads config/application.properties in the working directory, over the one in the jar.
        Files.writeString(dir.resolve("config/application.properties"),
                "mcpwire.stray-output=" + stray.toString().replace("\\", "\\\\") + "\n");
        strayOutputLandsIn(stray, new ProcessBuilder(QuarkusApp.command()).directory(dir.toFile()));
    }

    @Test
    void aBadValueStopsTheStartNamingTheSetting() throws Exception {
        try (QuarkusApp.Running app = QuarkusApp.start("-Dmcpwire.stderr=sometimes")) {
            app.closeInput();
            assertNotEquals(0, app.awaitExit());
            assertTrue(app.stderr().contains("mcpwire.stderr"), app.stderr());
            assertEquals(0, app.stdout().length, "nothing on the wire");
        }
    }

    @Test
    void turnedOffQuarkusMcpsOwnTransportServesWithItsFaults() throws Exception {
        try (QuarkusApp.Running app = QuarkusApp.start("-Dmcpwire.enabled=false")) {
            app.initialize();
            app.send(NOISY);
            assertEquals("quarkus-it: child stdout", new String(app.nextLine(), StandardCharsets.UTF_8),
                    "the inheritIO() child writes on the wire");
            app.closeInput(); // the child reads the client's stdin until it ends
            app.awaitExit();
            assertFalse(new String(app.stdout(), StandardCharsets.UTF_8).contains(PRINT), "the print is not on the wire");
            assertFalse(app.stderr().contains(PRINT), "nor on stderr: Quarkus MCP nulls System.out\n" + app.stderr());
            assertFalse(app.stderr().contains("serving the MCP stdio session over mcpwire"), app.stderr());
        }
    }
}
