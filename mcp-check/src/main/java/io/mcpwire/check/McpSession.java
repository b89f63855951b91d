package io.mcpwire.check;

import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.MetaKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A host's side of an MCP session over a {@link ServerWire}: it numbers the requests it sends,
 * matches every answer to its request, and at the end reports each request never answered or
 * answered twice and each answer to no request, on top of what the wire found. Messages the
 * server sends of its own (notifications, requests) are kept. One thread at a time.
 */
public final class McpSession {
    private final ServerWire wire;
    private final Duration timeout;
    /** Every request sent, in order, with the first answer to it once one came. */
    private final Map<RequestId, Optional<JsonRpcResponse>> asked = new LinkedHashMap<>();
    private final Map<RequestId, Integer> answerCounts = new HashMap<>();
    private final Set<RequestId> timedOut = new HashSet<>();
    private final Set<RequestId> owedAtEndOfInput = new HashSet<>();
    private final Set<RequestId> excused = new HashSet<>();
    private final List<JsonRpcMessage> fromServer = new ArrayList<>();
    private final List<Finding> unknown = new ArrayList<>();
    private long nextId = 1;
    private boolean logLevelAsked;

    /**
     * A session on {@code wire}.
     *
     * @param timeout how long {@link #request} waits for an answer
     */
    public McpSession(ServerWire wire, Duration timeout) {
        this.wire = wire;
        this.timeout = timeout;
    }

    /** The wire this session speaks on. */
    public ServerWire wire() {
        return wire;
    }

    /**
     * Sends a request without waiting for its answer.
     *
     * @param params its params as JSON text, or null for none
     * @return the id it was sent with
     */
    public RequestId send(String method, String params) {
        RequestId id = RequestId.of(nextId++);
        asked.put(id, Optional.empty());
        logLevelAsked |= params != null && params.contains(JsonText.string(MetaKeys.LOG_LEVEL));
        wire.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":" + JsonText.string(method)
                + (params != null ? ",\"params\":" + params : "") + "}");
        return id;
    }

    /** Sends a notification. */
    public void notify(String method, String params) {
        wire.send("{\"jsonrpc\":\"2.0\",\"method\":" + JsonText.string(method) + (params != null ? ",\"params\":" + params : "") + "}");
    }

    /**
     * Sends a request and waits for its answer.
     *
     * @return the answer, or empty when none came within the timeout
     */
    public Optional<JsonRpcResponse> request(String method, String params) throws InterruptedException {
        return await(send(method, params));
    }

    /** Waits up to the timeout for the answer to {@code id}; empty when none came. */
    public Optional<JsonRpcResponse> await(RequestId id) throws InterruptedException {
        return await(id, timeout);
    }

    /** Waits up to {@code wait} for the answer to {@code id}; empty when none came. */
    public Optional<JsonRpcResponse> await(RequestId id, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (asked.getOrDefault(id, Optional.empty()).isEmpty()) {
            long left = deadline - System.nanoTime();
            JsonRpcMessage m = left > 0 ? wire.next(Duration.ofNanos(left)) : null;
            if (m == null) {
                timedOut.add(id);
                return Optional.empty();
            }
            take(m);
        }
        return asked.get(id);
    }

    /**
     * Closes the server's stdin, then takes whatever else comes until every request still owed is
     * answered (and a little longer, for answers sent twice and late ones) or nothing comes within
     * the timeout.
     */
    public void endInputAndCollect() throws InterruptedException {
        asked.forEach((id, answer) -> {
            if (answer.isEmpty() && !timedOut.contains(id)) {
                owedAtEndOfInput.add(id);
            }
        });
        wire.endInput();
        JsonRpcMessage m;
        // Only what is still owed is waited for: a request already waited out is not waited for again.
        while (asked.entrySet().stream().anyMatch(e -> e.getValue().isEmpty() && !timedOut.contains(e.getKey()))) {
            if ((m = wire.next(timeout)) == null) {
                return;
            }
            take(m);
        }
        while ((m = wire.next(Duration.ofMillis(200))) != null) {
            take(m);
        }
    }

    /** The first answer to {@code id} taken so far; empty when none was. */
    public Optional<JsonRpcResponse> answerTo(RequestId id) {
        return asked.getOrDefault(id, Optional.empty());
    }

    /**
     * Leaves {@code id} out of {@link #findings()} when it is never answered, because another
     * finding already says so with what to do (the probe a legacy server ignores).
     */
    public void excuse(RequestId id) {
        excused.add(id);
    }

    /** How many answers to this session's requests were taken so far, doubled ones counted each time. */
    public int answers() {
        return answerCounts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Whether a request of this session asked for log messages ({@code io.modelcontextprotocol/logLevel} in its params). */
    public boolean askedForLogMessages() {
        return logLevelAsked;
    }

    /** The notifications and requests the server sent of its own accord, so far. */
    public List<JsonRpcMessage> fromServer() {
        return List.copyOf(fromServer);
    }

    /** Everything wrong so far: the wire's findings, then unknown, missing and doubled answers. */
    public List<Finding> findings() {
        List<Finding> all = new ArrayList<>(wire.findings());
        all.addAll(unknown);
        asked.forEach((id, answer) -> {
            int n = answerCounts.getOrDefault(id, 0);
            Phase phase = owedAtEndOfInput.contains(id) ? Phase.AFTER_END_OF_INPUT : Phase.SESSION;
            if (n == 0 && !excused.contains(id)) {
                all.add(new Finding(Finding.Kind.MISSING_ANSWER, phase, "request " + id + " was never answered",
                        phase == Phase.AFTER_END_OF_INPUT
                                ? "the server stops at end of input without answering what it has received: "
                                + "answer every request read before closing (mcpwire's transport does)"
                                : ""));
            } else if (n > 1) {
                all.add(new Finding(Finding.Kind.DUPLICATE_ANSWER, phase, "request " + id + " was answered " + n + " times", ""));
            }
        });
        return all;
    }

    private void take(JsonRpcMessage m) {
        if (!(m instanceof JsonRpcResponse r) || r.id() == null) {
            fromServer.add(m);
            return;
        }
        if (!asked.containsKey(r.id())) {
            unknown.add(new Finding(Finding.Kind.UNKNOWN_ANSWER, Phase.SESSION,
                    "an answer to id " + r.id() + ", which no request had", ""));
            return;
        }
        if (answerCounts.merge(r.id(), 1, Integer::sum) == 1) {
            asked.put(r.id(), Optional.of(r));
        }
    }
}
