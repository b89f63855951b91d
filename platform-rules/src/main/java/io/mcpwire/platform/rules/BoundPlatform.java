package io.mcpwire.platform.rules;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.ProcessExits;

/**
 * A provider whose rules run over a native binding loaded on first use: it can run here exactly
 * when its binding loads, and says why not when it cannot.
 *
 * @param <B> the binding
 */
public abstract class BoundPlatform<B> implements PlatformDescriptors {
    private final NativeBinding<B> binding;

    /** A provider over {@code binding}, which loads on first use. */
    protected BoundPlatform(NativeBinding<B> binding) {
        this.binding = binding;
    }

    /** The loaded binding, or an exception saying why it cannot load. */
    protected final B bound() throws DescriptorException {
        return binding.get();
    }

    /** How a wait for exits opens over the loaded binding. */
    @FunctionalInterface
    protected interface ExitsOver<B> {
        /** Opens a wait on {@code pids} over {@code binding}. */
        ProcessExits.Wait watch(B binding, long... pids) throws DescriptorException;
    }

    /**
     * A wait for exits, named {@code name} in logs and reports, that loads the binding when a wait
     * opens (so that offering it costs nothing) and opens it with {@code exits}.
     */
    protected final ProcessExits exitsOverBinding(String name, ExitsOver<B> exits) {
        return new ProcessExits() {
            @Override
            public Wait watch(long... pids) throws DescriptorException {
                return exits.watch(bound(), pids);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** The version these rules were built for. */
    @Override
    public final int spiVersion() {
        return PlatformDescriptors.SPI_VERSION;
    }

    /** Whether the binding loads: it is loaded now, once. */
    @Override
    public Probe probe() {
        return binding.probe();
    }
}
