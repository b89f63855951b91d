package io.mcpwire.stdio;

import io.mcpwire.platform.test.WindowsVariant;
import java.util.List;

/**
 * The Windows variants a matrix runs under, chosen by {@code -Dmcpwire.matrix.variants}: {@code all}
 * (the default, every variant that ships) or {@code covering} (four that take every value of every
 * component, for a second run of the build, such as CI's run with Windows conventions or on
 * another JDK, whose first run went through them all).
 */
final class MatrixVariants {
    static final String PROPERTY = "mcpwire.matrix.variants";

    private MatrixVariants() {
    }

    static List<WindowsVariant> of(boolean stderrIsStdout) {
        String chosen = System.getProperty(PROPERTY, "all");
        switch (chosen) {
            case "all":
                return WindowsVariant.shipped(stderrIsStdout);
            case "covering":
                return WindowsVariant.covering(stderrIsStdout);
            default:
                throw new IllegalArgumentException("-D" + PROPERTY + "=" + chosen + ": the choices are all and covering");
        }
    }
}
