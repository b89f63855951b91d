package io.mcpwire.platform.rules;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.Probe;

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
