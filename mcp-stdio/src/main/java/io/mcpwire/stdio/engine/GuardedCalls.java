package io.mcpwire.stdio.engine;

import io.mcpwire.platform.DescriptorException;

/**
 * Provider calls that only ever succeed or throw a {@link DescriptorException}: an unchecked
 * exception from a faulty provider takes the same safe paths as an OS error. Each call site
 * catches it itself and asks here for the exception that stands for it: a call through a lambda
 * would cost a generated class on the first claim of every start.
 */
final class GuardedCalls {
    private GuardedCalls() {
    }

    /** The failure that stands for the provider's unchecked {@code thrown} in {@code what} on {@code fd}. */
    static DescriptorException threw(int fd, String what, RuntimeException thrown) {
        return new DescriptorException(what, fd, 0, "the provider threw " + thrown);
    }
}
