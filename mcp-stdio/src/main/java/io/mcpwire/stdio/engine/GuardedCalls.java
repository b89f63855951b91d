package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorException;

/**
 * Provider calls that only ever succeed or throw a {@link DescriptorException}: an unchecked
 * exception from a faulty provider takes the same safe paths as an OS error.
 */
final class GuardedCalls {
    private GuardedCalls() {
    }

    /** A provider call that returns a descriptor. */
    @FunctionalInterface
    interface IntCall {
        int run() throws DescriptorException;
    }

    /** A provider call that returns nothing. */
    @FunctionalInterface
    interface VoidCall {
        void run() throws DescriptorException;
    }

    /** Runs {@code call}, {@code what} on {@code fd}, turning a provider's unchecked throw into a {@link DescriptorException}. */
    static int guarded(int fd, String what, IntCall call) throws DescriptorException {
        try {
            return call.run();
        } catch (RuntimeException e) {
            throw new DescriptorException(what, fd, 0, "the provider threw " + e);
        }
    }

    /** As {@link #guarded(int, String, IntCall)}, for a call that returns nothing. */
    static void guarded(int fd, String what, VoidCall call) throws DescriptorException {
        guarded(fd, what, () -> {
            call.run();
            return 0;
        });
    }
}
