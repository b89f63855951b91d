package io.mcpwire.sdkbridge;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The legacy provider loads, and is reflected on as Spring reflects on every bean's class, where
 * the SDK has no 2026-07-28 classes (SDK 0.17 to 2.1): its class names none of them. Checked by
 * loading the bridge's classes afresh under a class loader that hides {@code io.modelcontextprotocol.modern}.
 */
class OlderSdkLinesTest {
    private static final Path CLASSES = Path.of("target", "classes").toAbsolutePath();

    /** Loads the bridge's own classes from target/classes itself, and refuses the SDK's modern package. */
    private static final class WithoutModernSdk extends ClassLoader {
        WithoutModernSdk() {
            super(OlderSdkLinesTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (name.startsWith("io.modelcontextprotocol.modern.")) {
                    throw new ClassNotFoundException(name + " (hidden: an SDK before 2.2)");
                }
                if (!name.startsWith("io.mcpwire.sdkbridge.")) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try (InputStream in = java.nio.file.Files.newInputStream(CLASSES.resolve(name.replace('.', '/') + ".class"))) {
                        byte[] b = in.readAllBytes();
                        c = defineClass(name, b, 0, b.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    @Test
    void theLegacyProviderAndItsPartsLoadAndReflectWithoutTheModernClasses() throws Exception {
        ClassLoader loader = new WithoutModernSdk();
        for (String name : List.of("McpwireStdioServerTransportProvider", "McpwireStdioServerTransportProvider$Inbound",
                "McpwireStdioServerTransportProvider$SessionTransport", "SdkLine", "SdkMessages", "EraRoute", "EraServer")) {
            Class<?> c = Class.forName("io.mcpwire.sdkbridge." + name, true, loader);
            for (Method m : c.getDeclaredMethods()) {
                assertTrue(m.getName() != null); // every parameter and return type resolved
            }
            c.getDeclaredConstructors();
            c.getDeclaredFields();
        }
        // The check bites: the modern entry points do name the modern classes.
        Class<?> bothEras = Class.forName("io.mcpwire.sdkbridge.McpwireBothEras", false, loader);
        assertThrows(NoClassDefFoundError.class, bothEras::getDeclaredMethods);
    }
}
