package io.mcpwire.platform.rules;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.Probe;

/**
 * A provider's native bindings, loaded on first use and at most once, or the reason they cannot
 * be, kept as the {@link Throwable} the load threw (an {@link UnsupportedOperationException}
 * says "not this system"). Providers are constructed by the service loader in every process, so
 * loading waits until a claim needs it.
 *
 * @param <T> the loaded bindings
 */
public final class NativeBinding<T> {

    /** Loads the bindings; throws why it cannot. */
    @FunctionalInterface
    public interface Loader<T> {
        /** Loads the bindings. */
        T load() throws Exception;
    }

    /** The outcome of the one load. */
    private sealed interface Outcome<T> {
    }

    private record Loaded<T>(T bindings) implements Outcome<T> {
    }

    private record Unavailable<T>(Throwable cause) implements Outcome<T> {
    }

    private final String what;
    private final Loader<T> loader;
    private volatile Outcome<T> outcome;

    private NativeBinding(String what, Loader<T> loader, Outcome<T> outcome) {
        this.what = what;
        this.loader = loader;
        this.outcome = outcome;
    }

    /** Bindings that {@code loader} loads on first use; {@code what} names them in messages. */
    public static <T> NativeBinding<T> lazy(String what, Loader<T> loader) {
        return new NativeBinding<>(what, loader, null);
    }

    /** Bindings given ready-made (mocks in tests). */
    public static <T> NativeBinding<T> of(String what, T bindings) {
        return new NativeBinding<>(what, null, new Loaded<>(bindings));
    }

    private Outcome<T> outcome() {
        Outcome<T> o = outcome;
        if (o == null) {
            synchronized (this) {
                o = outcome;
                if (o == null) {
                    o = load();
                    outcome = o;
                }
            }
        }
        return o;
    }

    private Outcome<T> load() {
        try {
            return new Loaded<>(loader.load());
        } catch (Throwable t) { // UnsatisfiedLinkError and friends: the provider is unsupported, not broken
            return new Unavailable<>(t);
        }
    }

    /**
     * The bindings.
     *
     * @throws DescriptorException when they cannot be loaded, with the load's failure as its cause
     */
    public T get() throws DescriptorException {
        Outcome<T> o = outcome();
        if (o instanceof Loaded<T> loaded) {
            return loaded.bindings();
        }
        Throwable cause = ((Unavailable<T>) o).cause();
        DescriptorException e = new DescriptorException("load " + what, -1, 0, String.valueOf(cause));
        e.initCause(cause);
        throw e;
    }

    /**
     * Whether the bindings load, loading them now if they have not been: unavailable with the
     * load's failure as the cause, its message the reason when it says "not this system"
     * ({@link UnsupportedOperationException}).
     */
    public Probe probe() {
        Outcome<T> o = outcome();
        if (o instanceof Unavailable<T> u) {
            Throwable t = u.cause();
            return Probe.unavailable(t instanceof UnsupportedOperationException ? t.getMessage() : "could not load " + what + ": " + t, t);
        }
        return Probe.available();
    }
}
