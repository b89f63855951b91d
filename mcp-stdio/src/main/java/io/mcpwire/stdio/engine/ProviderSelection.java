package io.mcpwire.stdio.engine;

import static io.mcpwire.stdio.engine.ClaimLog.LOG;

import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.StandardHandleDuties;
import io.mcpwire.stdio.McpwireSettings;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Chooses the platform provider for a claim: an explicit one wins; then
 * {@code -Dmcpwire.platform=NAME} ({@code none} turns isolation off); then the usable provider
 * with the highest non-negative priority, asking each ({@link #unusable}: its SPI version, then
 * its probe) only until one can be used. It logs once which provider was bound and why each other
 * one was passed over. With none, the claim serves in place and one warning on stderr says that
 * isolation is off and why.
 */
public final class ProviderSelection {
    private static final String PROPERTY = McpwireSettings.PLATFORM;
    private static final String OFF = PROPERTY + "=none";
    /** The SPI version whose duties after a move moved to {@link StandardHandleDuties}. */
    private static final int DUTIES_FACET_VERSION = 5;
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static final AtomicBoolean REPORTED = new AtomicBoolean();
    /** Highest priority first; a class, not a lambda (see {@link #choose}). */
    private static final Comparator<PlatformDescriptors> BY_PRIORITY_DESCENDING = new Comparator<>() {
        @Override
        public int compare(PlatformDescriptors a, PlatformDescriptors b) {
            return Integer.compare(b.priority(), a.priority());
        }
    };
    private static volatile List<PlatformDescriptors> loaded;

    private ProviderSelection() {
    }

    /** The outcome of a choice: a provider, or none and why. */
    public sealed interface Choice {
        /** The provider chosen, or empty to serve in place. */
        default Optional<PlatformDescriptors> provider() {
            return this instanceof Chosen c ? Optional.of(c.platform()) : Optional.empty();
        }
    }

    /**
     * A provider to claim with.
     *
     * @param platform the provider
     */
    public record Chosen(PlatformDescriptors platform) implements Choice {
    }

    /**
     * No provider: the claim serves in place.
     *
     * @param why for the warning and for a claim that requires isolation
     */
    public record None(String why) implements Choice {
    }

    /**
     * Chooses: {@code explicit} when given, else the provider {@code named} (the setting
     * {@code mcpwire.platform}), else by priority. With none, the one warning on stderr says why
     * (unless {@code warn} is false).
     */
    public static Choice choose(Optional<PlatformDescriptors> explicit, Optional<String> named, boolean warn) {
        // Loops, not streams or lambdas, on the claim's path: their first use costs a cold start.
        Choice c = explicit.isPresent() ? given(explicit.get()) : pick(named.orElse(""));
        if (c instanceof None none && none.why().equals(OFF)) {
            LOG.log(Level.INFO, "stdio isolation is off: {0}", OFF);
        } else if (c instanceof None none && warn && WARNED.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "stdio isolation is off, serving the standard streams in place: {0}", none.why());
        }
        return c;
    }

    /**
     * Loads what a choice by {@code named} (the setting {@code mcpwire.platform}) would load, the
     * chosen provider's native binding included, and reports nothing: a choice made later finds it
     * loaded. Safe on any thread; a provider that cannot be used is left for the choice to report.
     */
    public static void prepare(Optional<String> named) {
        String wanted = named.orElse("");
        if (wanted.equals("none")) {
            return;
        }
        List<PlatformDescriptors> all = providers();
        Map<PlatformDescriptors, String> passedOver = new LinkedHashMap<>();
        Choice choice = wanted.isEmpty() ? byPriority(all, passedOver) : byName(wanted, all, passedOver);
        // The report's text and the logging back end are first used here, not in the claim.
        if (choice instanceof Chosen chosen) {
            LOG.log(Level.TRACE, "loaded ahead of a claim: {0}", bindingReport(chosen.platform(), all, passedOver));
        }
    }

    private static Choice given(PlatformDescriptors explicit) {
        Optional<String> why = unusable(explicit);
        return why.isPresent() ? new None("the provider given, " + explicit.name() + ", cannot be used: " + why.get()) : new Chosen(explicit);
    }

    /**
     * Why {@code p} cannot be bound, or empty when it can: built for another version of the SPI,
     * or its probe says it cannot run here. Never throws, whatever the provider does.
     */
    public static Optional<String> unusable(PlatformDescriptors p) {
        int version;
        try {
            version = p.spiVersion();
        } catch (AbstractMethodError e) {
            version = 1; // built before the SPI had versions
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("its spiVersion() threw " + e);
        }
        if (version < PlatformDescriptors.OLDEST_SPI_VERSION || version > PlatformDescriptors.SPI_VERSION) {
            return Optional.of("built for version " + version + " of the platform SPI; this mcpwire runs versions "
                    + PlatformDescriptors.OLDEST_SPI_VERSION + " to " + PlatformDescriptors.SPI_VERSION
                    + " (rebuild the provider against this mcpwire-platform-spi)");
        }
        try {
            if (p.probe() instanceof Probe.Unavailable u) {
                return Optional.of(u.reason());
            }
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("its probe threw " + e);
        }
        return withoutDuties(p, version);
    }

    /**
     * Why a provider whose JVM streams do not follow the descriptors cannot be bound when it offers no
     * {@link StandardHandleDuties} (one built for versions 2 to 4 has its duties as methods this SPI
     * no longer calls), or empty.
     */
    private static Optional<String> withoutDuties(PlatformDescriptors p, int version) {
        try {
            if (p.jvmStreamsFollowDescriptors() || p.standardHandleDuties().isPresent()) {
                return Optional.empty();
            }
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("its jvmStreamsFollowDescriptors() or standardHandleDuties() threw " + e);
        }
        return Optional.of("its JVM streams do not follow the descriptors, yet it offers no standard-handle duties"
                + (version < DUTIES_FACET_VERSION ? " (built for version " + version + " of the platform SPI, whose duties were methods of"
                        + " PlatformDescriptors; rebuild the provider against this mcpwire-platform-spi)" : ""));
    }

    private static Choice pick(String wanted) {
        if (wanted.equals("none")) {
            return new None(OFF);
        }
        List<PlatformDescriptors> all = providers();
        Map<PlatformDescriptors, String> passedOver = new LinkedHashMap<>();
        Choice choice = wanted.isEmpty() ? byPriority(all, passedOver) : byName(wanted, all, passedOver);
        report(choice, all, passedOver);
        return choice;
    }

    /** One name may stand for one provider per OS (the FFM module's): the first of them that can be used. */
    private static Choice byName(String wanted, List<PlatformDescriptors> all, Map<PlatformDescriptors, String> passedOver) {
        boolean found = false;
        for (PlatformDescriptors p : all) {
            if (!p.name().equals(wanted)) {
                continue;
            }
            found = true;
            Optional<String> why = unusable(p);
            if (why.isEmpty()) {
                return new Chosen(p);
            }
            passedOver.put(p, why.get());
        }
        if (!found) {
            return new None(PROPERTY + "=" + wanted + " names no provider; found: " + names(all));
        }
        return new None(PROPERTY + "=" + wanted + " cannot be used: " + String.join("; ", new LinkedHashSet<>(passedOver.values())));
    }

    /**
     * Asked in priority order and no further than the first that can be used, so that a lower
     * provider's native library (JNA's, behind the FFM provider) is never loaded for nothing.
     */
    private static Choice byPriority(List<PlatformDescriptors> all, Map<PlatformDescriptors, String> passedOver) {
        List<PlatformDescriptors> ranked = new ArrayList<>();
        for (PlatformDescriptors p : all) {
            if (p.priority() >= 0) {
                ranked.add(p);
            }
        }
        ranked.sort(BY_PRIORITY_DESCENDING);
        for (PlatformDescriptors p : ranked) {
            Optional<String> why = unusable(p);
            if (why.isEmpty()) {
                return new Chosen(p);
            }
            passedOver.put(p, why.get());
        }
        if (all.isEmpty()) {
            return new None("no platform provider is on the path (add platform-posix or platform-windows)");
        }
        List<String> reasons = new ArrayList<>();
        for (Map.Entry<PlatformDescriptors, String> e : passedOver.entrySet()) {
            reasons.add(e.getKey().name() + ": " + e.getValue());
        }
        return new None("no platform provider can run here: " + String.join("; ", reasons));
    }

    /**
     * Says once which provider was bound and why each other one found was passed over: at INFO when
     * one that was asked could not be used for a reason other than being for another system (a
     * failed load, another SPI version), else at DEBUG.
     */
    private static void report(Choice choice, List<PlatformDescriptors> all, Map<PlatformDescriptors, String> passedOver) {
        if (choice instanceof Chosen chosen && REPORTED.compareAndSet(false, true)) {
            boolean notable = false;
            for (PlatformDescriptors p : passedOver.keySet()) {
                notable |= !forAnotherSystem(p);
            }
            Level level = notable ? Level.INFO : Level.DEBUG;
            if (LOG.isLoggable(level)) {
                LOG.log(level, bindingReport(chosen.platform(), all, passedOver));
            }
        }
    }

    /**
     * Whether {@code p} cannot run here only because it is for another system (its probe's cause an
     * {@link UnsupportedOperationException}): nothing a user need hear of, unlike a failed load.
     */
    private static boolean forAnotherSystem(PlatformDescriptors p) {
        try {
            return p.probe() instanceof Probe.Unavailable u && u.cause().orElse(null) instanceof UnsupportedOperationException;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Which provider was bound, and why each other one {@code found} was passed over: the reason
     * it could not be used ({@code passedOver}), a negative priority, or a lower one (not asked).
     */
    public static String bindingReport(PlatformDescriptors bound, List<PlatformDescriptors> found,
                                       Map<PlatformDescriptors, String> passedOver) {
        List<String> others = new ArrayList<>();
        for (PlatformDescriptors p : found) {
            if (p == bound) {
                continue;
            }
            String why = passedOver.containsKey(p) ? "cannot be used: " + passedOver.get(p)
                    : p.priority() < 0 ? "chosen only by name (priority " + p.priority() + ")"
                    : "not asked: priority " + p.priority() + ", below " + bound.name() + "'s " + bound.priority();
            others.add(p.name() + " (" + why + ")");
        }
        return "platform provider " + bound.name() + " bound (platform SPI version " + PlatformDescriptors.SPI_VERSION
                + ", priority " + bound.priority() + "; the host watch " + hostWatchWay(bound) + "); "
                + (others.isEmpty() ? "no other provider found" : "also found: " + String.join(", ", others));
    }

    /**
     * How the host watch learns of the host's exit through {@code bound}: a wait of the system's
     * (which the system may still refuse when the watch opens one, logged then), or polling.
     */
    private static String hostWatchWay(PlatformDescriptors bound) {
        Optional<ProcessExits> exits;
        try {
            exits = bound.processExits();
        } catch (RuntimeException | LinkageError e) {
            exits = Optional.empty();
        }
        return exits.isPresent() ? "can wait for exits through " + exits.get() : "polls four times a second";
    }

    private static String names(List<PlatformDescriptors> all) {
        Set<String> names = new LinkedHashSet<>();
        for (PlatformDescriptors p : all) {
            names.add(p.name());
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /**
     * Launched from a module path with no class path, the module layer's own loader: every
     * provider is then in a module, and the class-path step of {@link ServiceLoader#load(Class)}
     * would open every module's jar to look for {@code META-INF/services} files, some 15 ms of
     * start-up. Otherwise (a class path, or a context class loader of the application's own, as
     * in a plugin layer) the usual loader, which finds providers there too.
     */
    private static ServiceLoader<PlatformDescriptors> serviceLoader() {
        Module own = ProviderSelection.class.getModule();
        boolean launchedFromModulePath = own.isNamed() && own.getLayer() != null
                && System.getProperty("java.class.path", "").isEmpty()
                && Thread.currentThread().getContextClassLoader() == ClassLoader.getSystemClassLoader();
        return launchedFromModulePath
                ? ServiceLoader.load(own.getLayer(), PlatformDescriptors.class)
                : ServiceLoader.load(PlatformDescriptors.class);
    }

    /** The providers found by the service loader, loaded once. */
    static synchronized List<PlatformDescriptors> providers() {
        List<PlatformDescriptors> l = loaded;
        if (l == null) {
            List<PlatformDescriptors> found = new ArrayList<>();
            Iterator<PlatformDescriptors> it = serviceLoader().iterator();
            while (true) {
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    found.add(it.next());
                } catch (ServiceConfigurationError e) {
                    LOG.log(Level.WARNING, "a platform provider could not be loaded: {0}", e.getMessage());
                }
            }
            loaded = l = List.copyOf(found);
        }
        return l;
    }
}
