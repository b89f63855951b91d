package io.mcpwire.check;

import io.mcpwire.jsonrpc.JsonRpcError;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.ProtocolEra;
import io.mcpwire.protocol.UnsupportedProtocolVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * How a session opened, as a host opens it: the probe (unless the legacy era was chosen), then
 * {@code initialize} when the server is legacy.
 *
 * @param verdict    the era spoken, and why
 * @param dialect    how to speak for the rest of the session; empty when no session opened
 * @param findings   what was wrong with the opening
 * @param openMillis time from the server's start to the answer that opened the session
 */
public record Opening(EraVerdict verdict, Optional<Dialect> dialect, List<Finding> findings, OptionalDouble openMillis) {
    /** The client name the checker gives. */
    static final String CLIENT = "mcpwire-check";

    /** Copies the list. */
    public Opening {
        findings = List.copyOf(findings);
    }

    /**
     * Opens a session on {@code session} as {@code options} say.
     *
     * @param started when the server was started, in {@link System#nanoTime()} terms
     */
    public static Opening open(McpSession session, Options options, long started) throws InterruptedException {
        if (options.era() == Options.EraChoice.LEGACY) {
            EraVerdict chosen = new EraVerdict(ProtocolEra.LEGACY, Optional.of(options.protocolVersion()),
                    "chosen with --era legacy; not probed", OptionalDouble.empty());
            return initialize(session, options, chosen, List.of(), Optional.empty(), started);
        }
        EraProbe.Outcome probe = EraProbe.run(session, Dialect.modern(options.modernVersion(), CLIENT), options.timeout(),
                options.protocolVersion());
        if (probe instanceof EraProbe.Outcome.Modern m) {
            return new Opening(m.verdict(), Optional.of(m.dialect()), List.of(), OptionalDouble.of(since(started)));
        }
        if (probe instanceof EraProbe.Outcome.Failed f) {
            return new Opening(f.verdict(), Optional.empty(), List.of(f.finding()), OptionalDouble.empty());
        }
        EraProbe.Outcome.Legacy legacy = (EraProbe.Outcome.Legacy) probe;
        if (options.era() == Options.EraChoice.MODERN) {
            String why = "the server does not speak the modern era: " + legacy.verdict().why().replace("; fell back to initialize", "");
            return new Opening(new EraVerdict(ProtocolEra.MODERN, Optional.empty(), why, legacy.verdict().probeMillis()), Optional.empty(),
                    List.of(new Finding(Finding.Kind.NO_SESSION, Phase.BEFORE_INITIALIZE, why,
                            "--era modern was asked for: serve server/discover and the _meta of 2026-07-28, or check with --era auto")),
                    OptionalDouble.empty());
        }
        return initialize(session, options, legacy.verdict(), legacy.findings(), Optional.of(legacy), started);
    }

    private static Opening initialize(McpSession session, Options options, EraVerdict verdict, List<Finding> before,
                                      Optional<EraProbe.Outcome.Legacy> probed, long started) throws InterruptedException {
        List<Finding> findings = new ArrayList<>(before);
        // After a probe waited out, initialize gets what is left of the one timeout the opening has
        // (and no less than the probe had): a server that answers nothing costs one timeout, not two.
        Optional<RequestId> unanswered = probed.flatMap(EraProbe.Outcome.Legacy::unanswered);
        Duration wait = initializeWait(options.timeout(), unanswered.isPresent());
        RequestId id = session.send("initialize", WireCheck.initializeParams(options.protocolVersion(), CLIENT));
        Optional<JsonRpcResponse> answer = session.await(id, wait);
        // A probe waited out but answered meanwhile: the server is slow to start, not deaf to the probe.
        if (unanswered.isPresent() && session.answerTo(unanswered.get()).isPresent()) {
            findings.replaceAll(f -> f.kind() == Finding.Kind.PROBE_UNANSWERED ? EraProbe.late(EraProbe.HOST_PROBE_WAIT) : f);
        }
        if (answer.isEmpty()) {
            if (probed.isPresent() && (session.wire().outputEnded() || verdict.probeMillis().isPresent())) {
                findings.add(EraProbe.fatal(session.wire().outputEnded()
                        ? "the server exited after the server/discover probe, before it answered initialize"
                        : "the server answered the server/discover probe, then left initialize unanswered"));
            }
            return new Opening(verdict, Optional.empty(), findings, OptionalDouble.empty());
        }
        if (answer.get() instanceof JsonRpcError e) {
            Optional<UnsupportedProtocolVersion> u = UnsupportedProtocolVersion.from(e);
            Optional<String> modern = u.flatMap(v -> EraProbe.common(v.supported()));
            if (probed.isPresent() && modern.isPresent()) {
                // A recognised modern error: the server is modern after all (it was slow to answer the probe).
                EraVerdict told = new EraVerdict(ProtocolEra.MODERN, modern, "server/discover was not answered in time, and initialize "
                        + "was refused with -32022 naming " + modern.get() + ", so the session is modern", verdict.probeMillis());
                return new Opening(told, Optional.of(Dialect.modern(modern.get(), CLIENT)), findings, OptionalDouble.of(since(started)));
            }
            findings.add(new Finding(Finding.Kind.NO_SESSION, Phase.BEFORE_INITIALIZE, "initialize was refused with "
                    + e.error().code() + " " + ServerWire.quote(e.error().message())
                    + u.map(v -> " (it speaks " + String.join(", ", v.supported()) + ")").orElse(""),
                    probed.isPresent() ? "the server opened no session on the probe, and refused initialize: a host can open none with it"
                            : "a legacy host can open no session with this server; if it speaks only the modern era, check with --era auto"));
            return new Opening(verdict, Optional.empty(), findings, OptionalDouble.empty());
        }
        String agreed = ((JsonRpcResult) answer.get()).result().path("protocolVersion").asString(options.protocolVersion());
        EraVerdict told = new EraVerdict(ProtocolEra.LEGACY, Optional.of(agreed), verdict.why(), verdict.probeMillis());
        return new Opening(told, Optional.of(Dialect.legacy(agreed, CLIENT)), findings, OptionalDouble.of(since(started)));
    }

    /**
     * How long {@code initialize} is waited for: the whole {@code timeout}, or after a probe that
     * was waited out, what is left of it, and no less than the probe had.
     */
    static Duration initializeWait(Duration timeout, boolean probeWaitedOut) {
        Duration probeWait = EraProbe.waitFor(timeout);
        Duration left = timeout.minus(probeWait);
        return !probeWaitedOut ? timeout : left.compareTo(probeWait) < 0 ? probeWait : left;
    }

    private static double since(long started) {
        return (System.nanoTime() - started) / 1e6;
    }
}
