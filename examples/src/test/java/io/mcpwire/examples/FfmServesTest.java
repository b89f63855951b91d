package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.harness.ChildJvm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.condition.OS;

/**
 * The demo server in a child JVM with the JNA providers on its module path too: the FFM provider
 * is chosen, serves the session, and not one JNA class is loaded (the class-loading log says so);
 * with {@code -Dmcpwire.platform=posix} (or {@code windows}) the JNA provider still serves. On
 * Windows this is where the foreign Windows binding meets a real process.
 */
@EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "the FFM provider is built, and runs, on JDK 22 and newer")
class FfmServesTest {
    /** This system's JNA provider. */
    private static final String JNA_PROVIDER = OS.WINDOWS.isCurrentOs() ? "windows" : "posix";

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n";

    /** Runs the demo with the class-loading log on stderr (a file's path would need quoting on Windows, for its drive's colon). */
    private static ChildJvm.Result serve(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=io.mcpwire.platform.ffm,com.sun.jna",
                "-Xlog:class+load=info:stderr"));
        command.addAll(List.of(options));
        command.addAll(List.of("-p", ChildJvm.path(), "-m", "io.mcpwire.examples/io.mcpwire.examples.DemoServer"));
        return ChildJvm.run(command, INIT, false, Duration.ofSeconds(60));
    }

    private static List<String> jnaClasses(ChildJvm.Result r) {
        return r.stderr().lines().filter(l -> l.contains(" com.sun.jna.")).collect(Collectors.toList());
    }

    @Test
    void theFfmProviderIsChosenServesAndNoJnaClassIsLoaded() throws Exception {
        ChildJvm.Result r = serve();
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.stdout().contains("\"id\":1") && r.stdout().contains("\"id\":2"), r::describe);
        assertTrue(r.stderr().contains("stdio claimed through ffm, isolated"), r::describe);
        assertTrue(r.stderr().contains("io.mcpwire.platform.ffm.FfmPosix"), "the class-loading log is there");
        assertEquals(List.of(), jnaClasses(r), "no JNA class is loaded when the FFM provider serves");
        assertFalse(r.stderr().contains("restricted method"), "no native-access warning: " + r.stderr());
    }

    @Test
    void thePropertyNamesTheFfmProviderOfThisSystemAmongTheTwoOfThatName() throws Exception {
        ChildJvm.Result r = serve("-Dmcpwire.platform=ffm");
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.stderr().contains("stdio claimed through ffm, isolated"), r::describe);
    }

    @Test
    void thePropertyStillChoosesTheJnaProvider() throws Exception {
        ChildJvm.Result r = serve("-Dmcpwire.platform=" + JNA_PROVIDER);
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.stderr().contains("stdio claimed through " + JNA_PROVIDER + ", isolated"), r::describe);
        assertFalse(jnaClasses(r).isEmpty(), "JNA serves");
    }
}
