package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo server as a fat jar ({@code java -jar examples-*-all.jar}, class path, the providers'
 * service files merged by the shade plugin): it still finds its provider, claims its streams and
 * keeps the wire clean.
 */
class ShadedJarIT {

    private static Path fatJar() {
        Path jar = Path.of("target", "fat", "demo-server.jar");
        assertTrue(Files.isRegularFile(jar), "the shade plugin made " + jar);
        return jar;
    }

    @Test
    void theFatJarFindsItsProviderAndClaims() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        DemoClient.Report r = DemoClient.run(List.of(java, "-jar", fatJar().toString()));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        DemoClient.print(r, new PrintStream(text, true, StandardCharsets.UTF_8));
        String report = text.toString(StandardCharsets.UTF_8);
        assertTrue(r.passed(), report + "\nstderr:\n" + r.stderr());
        assertTrue(r.stderr().matches("(?s).*stdio claimed through (posix|windows|ffm), isolated.*"),
                "the merged service files name the providers: " + r.stderr());
        assertTrue(!r.stderr().contains("restricted method") && !r.stderr().contains("native access"),
                "the manifest grants native access: " + r.stderr());
    }
}
