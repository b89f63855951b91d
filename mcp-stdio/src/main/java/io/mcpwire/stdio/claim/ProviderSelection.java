package io.mcpwire.stdio.claim;

import static io.mcpwire.stdio.claim.StdioLog.LOG;

import io.mcpwire.platform.PlatformDescriptors;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Chooses the platform provider for a claim: an explicit one wins; then
 * {@code -Dmcpwire.platform=NAME} ({@code none} turns isolation off); then the supported provider
 * with the highest non-negative priority, asking each whether it can run only until one can. With none, the claim serves in place and one warning
 * on stderr says that isolation is off and why.
 */
public final class ProviderSelection {
    /** The system property that names a provider. */
    public static final String PROPERTY = "mcpwire.platform";

    private static final String OFF = "-D" + PROPERTY + "=none";
    private static final AtomicBoolean WARNED = new AtomicBoolean();
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
     * Chooses: {@code explicit} when given, else by property or priority. With none, the one
     * warning on stderr says why (unless {@code warn} is false).
     */
    public static Choice choose(Optional<PlatformDescriptors> explicit, boolean warn) {
        Choice c = explicit.map(ProviderSelection::given).orElseGet(ProviderSelection::pick);
        if (c instanceof None none && none.why().equals(OFF)) {
            LOG.log(Level.INFO, "stdio isolation is off: {0}", OFF);
        } else if (c instanceof None none && warn && WARNED.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "stdio isolation is off, serving the standard streams in place: {0}", none.why());
        }
        return c;
    }

    private static Choice given(PlatformDescriptors explicit) {
        return explicit.isSupported() ? new Chosen(explicit) : new None("the provider given, "
                + explicit.name() + ", cannot run here: " + explicit.unavailabilityCause());
    }

    private static Choice pick() {
        String wanted = System.getProperty(PROPERTY, "").trim();
        if (wanted.equals("none")) {
            return new None(OFF);
        }
        List<PlatformDescriptors> all = providers();
        if (!wanted.isEmpty()) {
            // One name may stand for one provider per OS (the FFM module's): the one that can run here.
            List<PlatformDescriptors> named = all.stream().filter(p -> p.name().equals(wanted)).collect(Collectors.toList());
            if (named.isEmpty()) {
                return new None("-D" + PROPERTY + "=" + wanted + " names no provider; found: " + names(all));
            }
            return named.stream().filter(PlatformDescriptors::isSupported).findFirst().<Choice>map(Chosen::new)
                    .orElseGet(() -> new None("-D" + PROPERTY + "=" + wanted + " cannot run here: " + named.stream()
                            .map(PlatformDescriptors::unavailabilityCause).distinct().collect(Collectors.joining("; "))));
        }
        // Asked in priority order and no further than the first that can run, so that a lower
        // provider's native library (JNA's, behind the FFM provider) is never loaded for nothing.
        return all.stream()
                .filter(p -> p.priority() >= 0)
                .sorted(Comparator.comparingInt(PlatformDescriptors::priority).reversed())
                .filter(PlatformDescriptors::isSupported)
                .findFirst()
                .<Choice>map(Chosen::new)
                .orElseGet(() -> new None(all.isEmpty()
                        ? "no platform provider is on the path (add platform-posix or platform-windows)"
                        : "no platform provider can run here: " + all.stream()
                                .filter(p -> p.priority() >= 0)
                                .map(p -> p.name() + ": " + p.unavailabilityCause())
                                .collect(Collectors.joining("; "))));
    }

    private static String names(List<PlatformDescriptors> all) {
        return all.isEmpty() ? "none" : all.stream().map(PlatformDescriptors::name).distinct().collect(Collectors.joining(", "));
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
    static List<PlatformDescriptors> providers() {
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
