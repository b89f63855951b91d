package io.mcpwire.platform.rules.posix;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a JVM opens for itself and may leave on a standard descriptor the parent left closed:
 * anything under {@code java.home} (the module image {@code lib/modules}) and the entries of the
 * class path and module path (a jar lands on fd 1 when fd 0 and 1 were closed).
 */
public final class JvmOwnFiles {
    private final List<Path> roots;

    private JvmOwnFiles(List<Path> roots) {
        this.roots = roots;
    }

    /** This JVM's files, from its system properties. */
    public static JvmOwnFiles ofThisJvm() {
        List<Path> roots = new ArrayList<>();
        add(roots, System.getProperty("java.home"));
        for (String property : new String[] {"java.class.path", "jdk.module.path", "jdk.module.upgrade.path"}) {
            String value = System.getProperty(property);
            if (value != null) {
                for (String entry : value.split(File.pathSeparator)) {
                    add(roots, entry);
                }
            }
        }
        return new JvmOwnFiles(List.copyOf(roots));
    }

    private static void add(List<Path> roots, String path) {
        if (path == null || path.isBlank()) {
            return;
        }
        try {
            roots.add(Path.of(path).toRealPath());
        } catch (IOException | RuntimeException e) {
            // a path entry that does not exist holds no file of ours
        }
    }

    /** Whether {@code file}, the regular file an open descriptor refers to, is one of the JVM's own. */
    public boolean contains(Path file) {
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            return false;
        }
        for (Path root : roots) {
            if (real.equals(root) || real.startsWith(root)) {
                return true;
            }
        }
        return false;
    }
}
