package io.mcpwire.check;

import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.DiscoverResult;
import io.mcpwire.protocol.McpErrorCodes;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.ProtocolEra;
import io.mcpwire.protocol.UnsupportedProtocolVersion;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The probe a dual-era host sends first on stdio: {@code server/discover} in the modern era's
 * {@code _meta}, and what its answer says of the server. A {@code DiscoverResult}, or one of the
 * modern errors, makes it modern (a version it does not speak is retried once in one it lists);
 * any other error, or silence for as long as hosts wait, makes it legacy.
 */
final class EraProbe {
    /** How long hosts wait for the probe before they fall back: about 3 s (Claude Code 2.1). */
    static final Duration HOST_PROBE_WAIT = Duration.ofSeconds(3);

    /** What the probe told. */
    sealed interface Outcome {
        /** The verdict, for the report. */
        EraVerdict verdict();

        /** A modern server, speaking {@code dialect}. */
        record Modern(Dialect dialect, EraVerdict verdict) implements Outcome {
        }

        /**
         * A legacy server, or one that did not answer in time: fall back to {@code initialize}.
         * {@code unanswered} is the probe's id when it went unanswered, to tell a late answer later.
         */
        record Legacy(EraVerdict verdict, List<Finding> findings, Optional<RequestId> unanswered) implements Outcome {
        }

        /** No session can be opened: {@code finding} says why. */
        record Failed(EraVerdict verdict, Finding finding) implements Outcome {
        }
    }

    private EraProbe() {
    }

    /**
     * Probes in {@code preferred}'s version, waiting for the answer as long as hosts do (or
     * {@code timeout}, when shorter).
     */
    static Outcome run(McpSession session, Dialect preferred, Duration timeout, String legacyVersion) throws InterruptedException {
        Duration wait = waitFor(timeout);
        Dialect dialect = preferred;
        for (int attempt = 0; ; attempt++) {
            long start = System.nanoTime();
            RequestId id = session.send(McpProtocol.SERVER_DISCOVER, dialect.params(null));
            Optional<JsonRpcResponse> answer = session.await(id, wait);
            double millis = (System.nanoTime() - start) / 1e6;
            if (answer.isEmpty()) {
                if (session.wire().outputEnded()) {
                    return exited(dialect);
                }
                session.excuse(id); // PROBE_UNANSWERED says it, with what to do
                return silent(wait, legacyVersion, id);
            }
            OptionalDouble took = OptionalDouble.of(millis);
            if (answer.get() instanceof JsonRpcResult r) {
                return discovered(dialect, r, took);
            }
            JsonRpcError e = (JsonRpcError) answer.get();
            Optional<UnsupportedProtocolVersion> unsupported = UnsupportedProtocolVersion.from(e);
            if (unsupported.isPresent()) {
                Optional<String> common = common(unsupported.get().supported());
                if (common.isPresent() && attempt == 0) {
                    dialect = Dialect.modern(common.get(), preferred.client());
                    continue;
                }
                return noSession(dialect, took, "the server refused the probe in " + dialect.version()
                        + " and speaks " + String.join(", ", unsupported.get().supported()) + ", none of which the checker speaks ("
                        + String.join(", ", McpProtocol.MODERN_VERSIONS) + ")");
            }
            if (McpErrorCodes.isModern(e.error().code())) {
                return noSession(dialect, took, "the server refused the probe with modern error " + e.error().code() + " "
                        + ServerWire.quote(e.error().message()));
            }
            return new Outcome.Legacy(new EraVerdict(ProtocolEra.LEGACY, Optional.of(legacyVersion),
                    String.format(Locale.ROOT, "the server refused server/discover with %d %s in %.0f ms; fell back to initialize",
                            e.error().code(), ServerWire.quote(e.error().message()), millis), took), List.of(), Optional.empty());
        }
    }

    /** How long the probe is waited for: as long as hosts wait, or {@code timeout} when shorter. */
    static Duration waitFor(Duration timeout) {
        return timeout.compareTo(HOST_PROBE_WAIT) < 0 ? timeout : HOST_PROBE_WAIT;
    }

    private static Outcome discovered(Dialect dialect, JsonRpcResult r, OptionalDouble took) {
        DiscoverResult d;
        try {
            d = DiscoverResult.fromJson(r.result());
        } catch (IllegalArgumentException bad) {
            return noSession(dialect, took, "server/discover's result is malformed: " + bad.getMessage());
        }
        Optional<String> version = d.supportedVersions().contains(dialect.version()) ? Optional.of(dialect.version())
                : common(d.supportedVersions());
        if (version.isEmpty()) {
            return noSession(dialect, took, "the server speaks " + String.join(", ", d.supportedVersions())
                    + ", none of which the checker speaks (" + String.join(", ", McpProtocol.MODERN_VERSIONS) + ")");
        }
        return new Outcome.Modern(Dialect.modern(version.get(), dialect.client()), new EraVerdict(ProtocolEra.MODERN,
                version, String.format(Locale.ROOT, "the server answered server/discover in %.0f ms", took.getAsDouble()), took));
    }

    /** The first of the modern versions the checker speaks that {@code offered} lists. */
    static Optional<String> common(List<String> offered) {
        return McpProtocol.MODERN_VERSIONS.stream().filter(offered::contains).findFirst();
    }

    private static Outcome silent(Duration wait, String legacyVersion, RequestId id) {
        String waited = wait.toMillis() + " ms";
        return new Outcome.Legacy(new EraVerdict(ProtocolEra.LEGACY, Optional.of(legacyVersion),
                "server/discover was not answered within " + waited + "; fell back to initialize", OptionalDouble.empty()),
                List.of(new Finding(Finding.Kind.PROBE_UNANSWERED, Phase.BEFORE_INITIALIZE,
                        "server/discover was not answered within " + waited + ", as long as hosts wait before they fall back to initialize",
                        "answer a request the server does not know, even before initialize, with -32601 (Method not found) "
                                + "at once: every host that probes waits out its probe timeout otherwise")), Optional.of(id));
    }

    /** The finding for a probe answered, but later than hosts wait: the server starts slowly. */
    static Finding late(Duration wait) {
        return new Finding(Finding.Kind.PROBE_UNANSWERED, Phase.BEFORE_INITIALIZE, "server/discover was answered, but only after the "
                + wait.toMillis() + " ms hosts wait before they fall back to initialize", "the server starts too slowly for a host's probe: start it faster (docs/hosts.md: "
                + "the lean profile, a class data archive or AOT cache), and claim stdio and read stdin before slow initialisation");
    }

    private static Outcome exited(Dialect dialect) {
        return new Outcome.Failed(new EraVerdict(dialect.era(), Optional.empty(), "the server exited on server/discover", OptionalDouble.empty()),
                fatal("the server exited after the server/discover probe, without answering it"));
    }

    /** The finding for a server that a probe ends or silences. */
    static Finding fatal(String detail) {
        return new Finding(Finding.Kind.PROBE_FATAL, Phase.BEFORE_INITIALIZE, detail,
                "the server ends, or stops answering, when a request comes before initialize; hosts that probe with "
                        + "server/discover first then lose it: answer unknown methods with -32601 and keep serving");
    }

    private static Outcome noSession(Dialect dialect, OptionalDouble took, String detail) {
        return new Outcome.Failed(new EraVerdict(dialect.era(), Optional.empty(), detail, took),
                new Finding(Finding.Kind.NO_SESSION, Phase.BEFORE_INITIALIZE, detail,
                        "a host can open no session with this server: answer server/discover with a DiscoverResult that lists 2026-07-28"));
    }
}
