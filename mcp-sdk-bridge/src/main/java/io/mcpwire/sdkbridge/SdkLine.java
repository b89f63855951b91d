package io.mcpwire.sdkbridge;

import io.modelcontextprotocol.json.McpJsonMapper;
import java.lang.reflect.InvocationTargetException;

/**
 * The official SDK's API lines the bridge runs on, told apart at run time, and what differs
 * between them. Everything the bridge uses of the session and transport API is the same on
 * each; only where the default JSON mapper comes from differs.
 */
public enum SdkLine {
    /** SDK 2.x (Spring AI 2.0), on Jackson 3: {@code McpJsonDefaults.getMapper()}. */
    V2("io.modelcontextprotocol.json.McpJsonDefaults", "getMapper"),
    /** SDK 0.17 (Spring AI 1.1), on Jackson 2: {@code McpJsonMapper.getDefault()}. */
    V0_17("io.modelcontextprotocol.json.McpJsonMapper", "getDefault");

    private final String holder;
    private final String method;

    SdkLine(String holder, String method) {
        this.holder = holder;
        this.method = method;
    }

    /** The line of the SDK on the class or module path. */
    public static SdkLine current() {
        try {
            Class.forName(V2.holder, false, McpJsonMapper.class.getClassLoader());
            return V2;
        } catch (ClassNotFoundException e) {
            return V0_17;
        }
    }

    /** The SDK's default JSON mapper, as the SDK's own stdio transport would use it. */
    public McpJsonMapper defaultMapper() {
        try {
            Class<?> c = Class.forName(holder, true, McpJsonMapper.class.getClassLoader());
            return (McpJsonMapper) c.getMethod(method).invoke(null);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the SDK's default JSON mapper could not be made: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this SDK (" + name() + " line) has no " + holder + "." + method + "()", e);
        }
    }
}
