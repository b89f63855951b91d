/**
 * The fake: one in-memory descriptor table with a POSIX face and a Windows face (the C runtime and
 * Win32 handles, in every Windows variant that ships), scriptable faults and the checks tests make
 * of it ({@code io.mcpwire.platform.test}); and, apart, the harnesses that run real processes and
 * watch real threads ({@code io.mcpwire.platform.test.harness}). It is never chosen automatically;
 * select it explicitly or with {@code -Dmcpwire.platform=fake}.
 */
module io.mcpwire.platform.test {
    requires transitive io.mcpwire.platform;
    requires io.mcpwire.platform.rules;
    requires static java.logging; // only to make its console handler before System.err is swapped

    exports io.mcpwire.platform.test;
    exports io.mcpwire.platform.test.harness;

    provides io.mcpwire.platform.PlatformDescriptors with io.mcpwire.platform.test.SharedFakeProvider;
}
