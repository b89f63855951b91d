/** A scriptable fake descriptor table for tests. */
module io.mcpwire.platform.test {
    requires transitive io.mcpwire.api;

}
