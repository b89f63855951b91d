package io.mcpwire.check;

import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.protocol.CacheHint;
import io.mcpwire.protocol.ModernResult;
import io.mcpwire.protocol.ProtocolEra;
import io.mcpwire.protocol.ResultType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What the modern era asks of a result: a {@code resultType} the client knows, and on the
 * cacheable ones ({@link ModernResult#CACHEABLE}: {@code server/discover}, the list methods,
 * {@code resources/read}) {@code ttlMs} and {@code cacheScope}.
 * Legacy results are not judged.
 */
final class ResultRules {
    private ResultRules() {
    }

    /** What is wrong with the answer to {@code method}, spoken in {@code dialect}; errors and no answer are judged elsewhere. */
    static List<Finding> judge(Dialect dialect, String method, Optional<JsonRpcResponse> answer) {
        if (dialect.era() != ProtocolEra.MODERN || answer.isEmpty() || !(answer.get() instanceof JsonRpcResult r)) {
            return List.of();
        }
        List<Finding> wrong = new ArrayList<>();
        JsonNode result = r.result();
        if (!result.has(ResultType.MEMBER) || ResultType.of(result).isEmpty()) {
            wrong.add(new Finding(Finding.Kind.MALFORMED_RESULT, Phase.SESSION, "the " + method + " result "
                    + (result.has(ResultType.MEMBER) ? "has resultType " + (result.get(ResultType.MEMBER).isString()
                    ? ServerWire.quote(result.get(ResultType.MEMBER).stringValue()) : "of type " + result.get(ResultType.MEMBER).getNodeType())
                    + ", which 2026-07-28 does not define" : "has no resultType"),
                    "every result of protocol version " + dialect.version() + " says \"resultType\": \"complete\" (or \"input_required\")"));
        }
        if (ModernResult.CACHEABLE.contains(method) && CacheHint.of(result).isEmpty()) {
            wrong.add(new Finding(Finding.Kind.MALFORMED_RESULT, Phase.SESSION, "the " + method + " result has no valid ttlMs and cacheScope",
                    "a cacheable result of " + dialect.version() + " says how long it stays fresh (\"ttlMs\", 0 or more) "
                            + "and who may share it (\"cacheScope\": \"public\" or \"private\")"));
        }
        return wrong;
    }
}
