package io.mcpwire.stdio;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every setting of mcpwire's claim and transport, in one record, read in one place. Each setting
 * has one name, under the prefix {@code mcpwire.}, the same everywhere: the system property
 * {@code -Dmcpwire.NAME=VALUE}, the Spring starter's property {@code mcpwire.NAME} (which a system
 * property or an environment variable {@code MCPWIRE_NAME} also sets), and the Kotlin options'
 * method of the same name; {@code StdioClaim.Builder} and {@code StdioTransport.Builder} take the
 * record whole ({@code settings}) and have methods for the settings they use themselves. An
 * explicit call on a builder wins over the system property, which wins over the default.
 *
 * <table>
 * <caption>Settings</caption>
 * <tr><th>name</th><th>values</th><th>default</th><th>what it chooses</th></tr>
 * <tr><td>{@code mcpwire.platform}</td><td>a provider's name ({@code posix}, {@code windows}, {@code ffm},
 *     {@code fake}), {@code none}</td><td>the best that can run</td><td>the platform provider; {@code none}
 *     turns isolation off</td></tr>
 * <tr><td>{@code mcpwire.isolation}</td><td>{@code preferred}, {@code required}</td><td>{@code preferred}</td>
 *     <td>whether a claim that cannot isolate may serve in place ({@link Isolation})</td></tr>
 * <tr><td>{@code mcpwire.stray-output}</td><td>{@code stderr}, {@code null}, a file path</td><td>{@code stderr}</td>
 *     <td>where stray output goes ({@link StrayOutput})</td></tr>
 * <tr><td>{@code mcpwire.stderr}</td><td>{@code guarded}, {@code direct}</td><td>{@code guarded}</td>
 *     <td>whether the process's own stderr goes through the drain ({@link StderrPolicy})</td></tr>
 * <tr><td>{@code mcpwire.host-watch}</td><td>{@code ancestors}, {@code parent}, {@code off}</td><td>{@code ancestors}</td>
 *     <td>which processes the session ends with ({@link HostWatch})</td></tr>
 * <tr><td>{@code mcpwire.children}</td><td>{@code end}, {@code leave}</td><td>{@code end}</td>
 *     <td>whether the processes the server started end when it stops serving ({@link Children})</td></tr>
 * <tr><td>{@code mcpwire.children-grace}</td><td>a duration from 0 to 2 s ({@code 500ms}, {@code 2s})</td><td>{@code 2s}</td>
 *     <td>how long they are given to end before they are ended forcibly</td></tr>
 * </table>
 *
 * @param platform    the provider's name; empty to choose the best that can run
 * @param isolation   whether a claim that cannot isolate may serve in place
 * @param strayOutput where stray output goes
 * @param stderr      whether the process's own stderr goes through the drain
 * @param hostWatch   which processes the session ends with
 * @param children    whether the processes the server started end when it stops serving
 * @param childrenGrace how long they are given to end before they are ended forcibly
 */
public record McpwireSettings(Optional<String> platform, Isolation isolation, StrayOutput strayOutput, StderrPolicy stderr,
                              HostWatch hostWatch, Children children, Duration childrenGrace) {
    /** {@code mcpwire.platform}. */
    public static final String PLATFORM = "mcpwire.platform";
    /** {@code mcpwire.isolation}. */
    public static final String ISOLATION = Isolation.SETTING;
    /** {@code mcpwire.stray-output}. */
    public static final String STRAY_OUTPUT = "mcpwire.stray-output";
    /** {@code mcpwire.stderr}. */
    public static final String STDERR = StderrPolicy.SETTING;
    /** {@code mcpwire.host-watch}. */
    public static final String HOST_WATCH = HostWatch.SETTING;
    /** {@code mcpwire.children}. */
    public static final String CHILDREN = Children.SETTING;
    /** {@code mcpwire.children-grace}. */
    public static final String CHILDREN_GRACE = Children.GRACE_SETTING;

    /** Validates the members. */
    public McpwireSettings {
        Objects.requireNonNull(platform, "platform");
        Objects.requireNonNull(isolation, "isolation");
        Objects.requireNonNull(strayOutput, "strayOutput");
        Objects.requireNonNull(stderr, "stderr");
        Objects.requireNonNull(hostWatch, "hostWatch");
        Objects.requireNonNull(children, "children");
        Objects.requireNonNull(childrenGrace, "childrenGrace");
        if (childrenGrace.isNegative() || childrenGrace.compareTo(Children.MAX_GRACE) > 0) {
            throw new IllegalArgumentException(CHILDREN_GRACE + "=" + childrenGrace + ": expected a duration from 0 to 2s");
        }
    }

    /** The defaults, whatever the system properties say. */
    public static McpwireSettings defaults() {
        return new McpwireSettings(Optional.empty(), Isolation.PREFERRED, StrayOutput.stderr(), StderrPolicy.GUARDED, HostWatch.ANCESTORS,
                Children.END, Children.MAX_GRACE);
    }

    /**
     * What the system properties say now, every setting read once, here; the default for each
     * one unset.
     *
     * @throws IllegalArgumentException when one is set to a value it does not take, naming it
     */
    public static McpwireSettings fromSystemProperties() {
        warnOfOldNames(SystemProperties.NOW);
        return from(SystemProperties.NOW);
    }

    /**
     * The system properties as a source of settings: a class, not a lambda, since the first claim
     * reads it and a lambda's first call costs a generated class at every start.
     */
    private enum SystemProperties implements Function<String, Optional<String>> {
        NOW;

        @Override
        public Optional<String> apply(String name) {
            return Optional.ofNullable(System.getProperty(name));
        }
    }

    /** The names settings had before this one, each with its name now: set, they are not read. */
    private static final java.util.Map<String, String> OLD_NAMES = java.util.Map.of(
            "mcpwire.stray", STRAY_OUTPUT, "mcpwire.stdio.stderr", STDERR, "mcpwire.stdio.host-watch", HOST_WATCH);

    /** Says, once, that a setting under a name it no longer has is not read, and its name now. */
    public static void warnOfOldNames(Function<String, Optional<String>> source) {
        for (java.util.Map.Entry<String, String> name : OLD_NAMES.entrySet()) {
            Optional<String> value = source.apply(name.getKey());
            if (value.isPresent() && WARNED.add(name.getKey())) {
                System.getLogger("io.mcpwire.stdio").log(System.Logger.Level.WARNING,
                        "{0}={1} is not read: the setting is {2} now", name.getKey(), value.get(), name.getValue());
            }
        }
    }

    private static final java.util.Set<String> WARNED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * What {@code source} says, given each setting's full name ({@code mcpwire.stderr}); the
     * default for each it does not have: system properties, a framework's environment.
     *
     * @throws IllegalArgumentException when a setting has a value it does not take, naming it
     */
    public static McpwireSettings from(Function<String, Optional<String>> source) {
        Optional<String> platform = source.apply(PLATFORM);
        return new McpwireSettings(platform.isPresent() ? platformNamed(platform.get()) : Optional.empty(),
                Isolation.parse(source.apply(ISOLATION).orElse("")),
                StrayOutput.parse(source.apply(STRAY_OUTPUT).orElse("")),
                StderrPolicy.parse(source.apply(STDERR).orElse("")),
                HostWatch.parse(source.apply(HOST_WATCH).orElse("")),
                Children.parse(source.apply(CHILDREN).orElse("")),
                Children.parseGrace(source.apply(CHILDREN_GRACE).orElse("")));
    }

    /** These settings with the provider named {@code name}; blank or {@code auto}: the best that can run. */
    public McpwireSettings withPlatform(String name) {
        return new McpwireSettings(platformNamed(name), isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }

    private static Optional<String> platformNamed(String name) {
        String n = name.trim();
        return n.isEmpty() || n.equals("auto") ? Optional.empty() : Optional.of(n);
    }

    /** These settings with {@code isolation}. */
    public McpwireSettings withIsolation(Isolation isolation) {
        return new McpwireSettings(platform, isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }

    /** These settings with {@code strayOutput}. */
    public McpwireSettings withStrayOutput(StrayOutput strayOutput) {
        return new McpwireSettings(platform, isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }

    /** These settings with {@code stderr}. */
    public McpwireSettings withStderr(StderrPolicy stderr) {
        return new McpwireSettings(platform, isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }

    /** These settings with {@code children}. */
    public McpwireSettings withChildren(Children children) {
        return new McpwireSettings(platform, isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }

    /**
     * These settings with {@code grace} before the server's children are ended forcibly.
     *
     * @throws IllegalArgumentException when it is negative or over {@link Children#MAX_GRACE}
     */
    public McpwireSettings withChildrenGrace(Duration grace) {
        return new McpwireSettings(platform, isolation, strayOutput, stderr, hostWatch, children, grace);
    }

    /** These settings with {@code hostWatch}. */
    public McpwireSettings withHostWatch(HostWatch hostWatch) {
        return new McpwireSettings(platform, isolation, strayOutput, stderr, hostWatch, children, childrenGrace);
    }
}
