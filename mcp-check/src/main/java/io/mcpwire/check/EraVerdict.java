package io.mcpwire.check;

import io.mcpwire.protocol.ProtocolEra;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The era the checker spoke, and why.
 *
 * @param era             the era the session was run in
 * @param protocolVersion the version agreed; empty when none could be
 * @param why             how the era was told, for a person: the probe's outcome, or the {@code --era} chosen
 * @param probeMillis     how long the {@code server/discover} probe took to be answered; empty when
 *                        it was not sent or not answered
 */
public record EraVerdict(ProtocolEra era, Optional<String> protocolVersion, String why, OptionalDouble probeMillis) {
    /** Validates the members. */
    public EraVerdict {
        Objects.requireNonNull(era, "era");
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(probeMillis, "probeMillis");
    }
}
