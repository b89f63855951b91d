package io.mcpwire.stdio;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where stray output goes while the standard streams are claimed: what anything but the
 * transport writes to fd 1 (and to fd 2, when fd 2 is the wire, as after {@code 2>&1}). Chosen with
 * {@link StdioClaim.Builder#strayOutput} or {@code mcpwire.stray-output=stderr|null|PATH} (see
 * {@code McpwireSettings}).
 */
public sealed interface StrayOutput {

    /** To stderr, unless stderr is the wire, closed or read-only: then to the null device. The default. */
    record Stderr() implements StrayOutput {
    }

    /** To the null device: discarded. */
    record NullDevice() implements StrayOutput {
    }

    /**
     * Appended to a file, created when missing, for hosts that discard stderr; when it cannot be
     * opened, to the null device, with a warning.
     *
     * @param file the file
     */
    record AppendTo(Path file) implements StrayOutput {
        /** Validates the file. */
        public AppendTo {
            Objects.requireNonNull(file, "file");
        }
    }

    /** Stray output to stderr (the default). */
    static StrayOutput stderr() {
        return new Stderr();
    }

    /** Stray output discarded. */
    static StrayOutput nullDevice() {
        return new NullDevice();
    }

    /** Stray output appended to {@code file}. */
    static StrayOutput file(Path file) {
        return new AppendTo(file);
    }

    /** What a setting says: {@code stderr} (or blank), {@code null}, or the path of a file. */
    static StrayOutput parse(String setting) {
        String value = setting.trim();
        return switch (value) {
            case "", "stderr" -> stderr();
            case "null" -> nullDevice();
            default -> file(Path.of(value));
        };
    }
}
