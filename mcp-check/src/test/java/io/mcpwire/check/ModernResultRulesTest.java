package io.mcpwire.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.JsonRpcResult;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.protocol.CacheHint;
import io.mcpwire.protocol.Implementation;
import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.ModernResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A result made complete by {@link ModernResult} passes the checker's result rules, for every method; bare members do not. */
class ModernResultRulesTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Dialect MODERN = Dialect.modern(McpProtocol.LATEST_VERSION, "test");
    private static final ModernResult COMPLETE = new ModernResult(new Implementation("server", "1"), new CacheHint(60_000, CacheHint.Scope.PRIVATE));

    @Test
    void everyMethodsResultIsCompleteAndOnlyTheCacheableOnesCarryTheHint() {
        for (String method : List.of(McpProtocol.SERVER_DISCOVER, McpProtocol.TOOLS_LIST, McpProtocol.TOOLS_CALL,
                McpProtocol.PROMPTS_LIST, McpProtocol.RESOURCES_LIST, McpProtocol.RESOURCES_TEMPLATES_LIST, McpProtocol.RESOURCES_READ)) {
            ObjectNode bare = JSON.objectNode().put("member", 1);
            List<Finding> before = judge(method, bare.deepCopy());
            assertTrue(!before.isEmpty(), method + ": bare members are malformed");
            ObjectNode done = COMPLETE.complete(method, bare);
            assertEquals(List.of(), judge(method, done), method);
            assertEquals("complete", done.get("resultType").stringValue());
            assertEquals("server", done.path(MetaKeys.META).path(MetaKeys.SERVER_INFO).path("name").stringValue());
            assertEquals(ModernResult.CACHEABLE.contains(method), done.has("ttlMs"), method + ": the cache hint only where cacheable");
            assertEquals(1, done.get("member").intValue(), "the method's own members stay");
        }
    }

    @Test
    void aResultsOwnMetaAndCacheHintAreKept() {
        ObjectNode members = JSON.objectNode();
        members.putObject(MetaKeys.META).put("example.com/trace", "t-1");
        new CacheHint(0, CacheHint.Scope.PUBLIC).writeTo(members);
        ObjectNode done = COMPLETE.complete(McpProtocol.TOOLS_LIST, members);
        assertEquals("t-1", done.path(MetaKeys.META).path("example.com/trace").stringValue(), "the other _meta members stay");
        assertEquals(0, done.get("ttlMs").intValue(), "a hint of the result's own is not overwritten");
        assertEquals("public", done.get("cacheScope").stringValue());
        ModernResult anonymous = new ModernResult(Optional.empty(), new CacheHint(1, CacheHint.Scope.PUBLIC));
        assertTrue(!anonymous.complete(McpProtocol.TOOLS_CALL, JSON.objectNode()).has(MetaKeys.META), "no identity, no _meta");
    }

    private static List<Finding> judge(String method, ObjectNode result) {
        return ResultRules.judge(MODERN, method, Optional.of(new JsonRpcResult(RequestId.of(1), result)));
    }
}
