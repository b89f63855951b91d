/**
 * A scriptable fake descriptor table for tests of the stream claim and of servers built on it.
 * It is never chosen automatically; select it explicitly or with {@code -Dmcpwire.platform=fake}.
 */
module io.mcpwire.platform.test {
    requires transitive io.mcpwire.platform;
    requires io.mcpwire.platform.rules;

    exports io.mcpwire.platform.test;

    provides io.mcpwire.platform.PlatformDescriptors with io.mcpwire.platform.test.SharedFakeProvider;
}
