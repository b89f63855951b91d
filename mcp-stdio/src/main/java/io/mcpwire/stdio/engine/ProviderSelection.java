package io.mcpwire.stdio.engine;

import io.mcpwire.platform.PlatformDescriptors;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Chooses the platform provider for a claim: an explicit one wins; then
 * {@code -Dmcpwire.platform=NAME} ({@code none} turns isolation off); then the supported provider
 * with the highest non-negative priority. With none, the claim serves in place and one warning
 * on stderr says that isolation is off and why.
 */
public final class ProviderSelection {
    /** The system property that names a provider. */
    public static final String PROPERTY = "mcpwire.platform";

    private static final String OFF = "-D" + PROPERTY + "=none";
    private static final System.Logger LOG = System.getLogger("io.mcpwire.stdio");
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static volatile List<PlatformDescriptors> loaded;

    private ProviderSelection() {
    }

    /**
     * The outcome of a choice: a provider, or none and why.
     *
     * @param provider the provider, or null to serve in place
     * @param whyNone  why there is none; empty when there is one
     */
    public record Choice(PlatformDescriptors provider, String whyNone) {
        static Choice of(PlatformDescriptors provider) {
            return new Choice(provider, "");
        }

        static Choice none(String why) {
            return new Choice(null, why);
        }
    }

    /** Chooses; with none, the one warning on stderr says why (unless {@code warn} is false). */
    public static Choice choose(PlatformDescriptors explicit, boolean warn) {
        Choice c = pick(explicit);
        if (c.provider() == null && c.whyNone().equals(OFF)) {
            LOG.log(Level.INFO, "stdio isolation is off: {0}", OFF);
        } else if (c.provider() == null && warn && WARNED.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "stdio isolation is off, serving the standard streams in place: {0}", c.whyNone());
        }
        return c;
    }

    private static Choice pick(PlatformDescriptors explicit) {
        if (explicit != null) {
            return explicit.isSupported() ? Choice.of(explicit) : Choice.none("the provider given, "
                    + explicit.name() + ", cannot run here: " + explicit.unavailabilityCause());
        }
        String wanted = System.getProperty(PROPERTY, "").trim();
        if (wanted.equals("none")) {
            return Choice.none(OFF);
        }
        List<PlatformDescriptors> all = providers();
        if (!wanted.isEmpty()) {
            return all.stream().filter(p -> p.name().equals(wanted)).findFirst()
                    .map(p -> p.isSupported() ? Choice.of(p)
                            : Choice.none("-D" + PROPERTY + "=" + wanted + " cannot run here: " + p.unavailabilityCause()))
                    .orElseGet(() -> Choice.none("-D" + PROPERTY + "=" + wanted + " names no provider; found: " + names(all)));
        }
        PlatformDescriptors best = null;
        for (PlatformDescriptors p : all) {
            if (p.priority() >= 0 && p.isSupported() && (best == null || p.priority() > best.priority())) {
                best = p;
            }
        }
        if (best != null) {
            return Choice.of(best);
        }
        return Choice.none(all.isEmpty()
                ? "no platform provider is on the path (add platform-posix or platform-windows)"
                : "no platform provider can run here: " + all.stream()
                        .filter(p -> p.priority() >= 0)
                        .map(p -> p.name() + ": " + p.unavailabilityCause())
                        .collect(Collectors.joining("; ")));
    }

    private static String names(List<PlatformDescriptors> all) {
        return all.isEmpty() ? "none" : all.stream().map(PlatformDescriptors::name).collect(Collectors.joining(", "));
    }

    /** The providers found by the service loader, loaded once. */
    static List<PlatformDescriptors> providers() {
        List<PlatformDescriptors> l = loaded;
        if (l == null) {
            List<PlatformDescriptors> found = new ArrayList<>();
            Iterator<PlatformDescriptors> it = ServiceLoader.load(PlatformDescriptors.class).iterator();
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
