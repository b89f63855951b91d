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
    }

    /** Chooses; with none, the one warning on stderr says why (unless isolation is required). */
    public static Choice choose(PlatformDescriptors explicit, boolean warn) {
        String[] why = {""};
        PlatformDescriptors p = pick(explicit, reason -> {
            why[0] = reason;
            if (reason.equals(OFF)) {
                LOG.log(Level.INFO, "stdio isolation is off: {0}", reason);
            } else if (warn && WARNED.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "stdio isolation is off, serving the standard streams in place: {0}", reason);
            }
        });
        return new Choice(p, why[0]);
    }

    private static PlatformDescriptors pick(PlatformDescriptors explicit, java.util.function.Consumer<String> none) {
        if (explicit != null) {
            if (explicit.isSupported()) {
                return explicit;
            }
            none.accept("the provider given, " + explicit.name() + ", cannot run here: "
                    + explicit.unavailabilityCause());
            return null;
        }
        String wanted = System.getProperty(PROPERTY, "").trim();
        if (wanted.equals("none")) {
            none.accept(OFF);
            return null;
        }
        List<PlatformDescriptors> all = providers();
        if (!wanted.isEmpty()) {
            for (PlatformDescriptors p : all) {
                if (p.name().equals(wanted)) {
                    if (p.isSupported()) {
                        return p;
                    }
                    none.accept("-D" + PROPERTY + "=" + wanted + " cannot run here: " + p.unavailabilityCause());
                    return null;
                }
            }
            none.accept("-D" + PROPERTY + "=" + wanted + " names no provider; found: " + names(all));
            return null;
        }
        PlatformDescriptors best = null;
        for (PlatformDescriptors p : all) {
            if (p.priority() >= 0 && p.isSupported() && (best == null || p.priority() > best.priority())) {
                best = p;
            }
        }
        if (best != null) {
            return best;
        }
        none.accept(all.isEmpty()
                ? "no platform provider is on the path (add platform-posix or platform-windows)"
                : "no platform provider can run here: " + all.stream()
                        .filter(p -> p.priority() >= 0)
                        .map(p -> p.name() + ": " + p.unavailabilityCause())
                        .collect(Collectors.joining("; ")));
        return null;
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
