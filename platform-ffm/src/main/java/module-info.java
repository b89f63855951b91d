/**
 * The platform provider on the JDK's foreign function and memory API, for Linux, macOS, FreeBSD
 * and Windows: the same rules as the JNA providers, without JNA. Its bindings are compiled for
 * Java 22 and loaded only there; on JDK 17 to 21 the provider says it cannot run, and nothing
 * else happens. Run with {@code --enable-native-access=io.mcpwire.platform.ffm} (or
 * {@code ALL-UNNAMED} on the class path) to allow its native calls without a warning.
 */
module io.mcpwire.platform.ffm {
    requires io.mcpwire.platform.rules;

    provides io.mcpwire.platform.PlatformDescriptors with io.mcpwire.platform.ffm.FfmPosix, io.mcpwire.platform.ffm.FfmWindows;
}
