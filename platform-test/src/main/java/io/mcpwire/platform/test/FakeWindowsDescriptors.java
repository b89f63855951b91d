package io.mcpwire.platform.test;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PipeEnds;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.ProcessExits;
import io.mcpwire.platform.rules.NativeBinding;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import java.util.Optional;

/**
 * The Windows face of a fake process: mcpwire's shared Windows rules, exactly as the JNA and FFM
 * Windows providers run them, over the fake's model of the C runtime and the Win32 handles
 * ({@link FakeWin32}). What a claim does through it is judged on the model's end state, not on
 * the calls it made.
 */
final class FakeWindowsDescriptors extends WindowsPlatform {
    private final FakeKernel kernel;

    FakeWindowsDescriptors(FakeKernel kernel, FakeWin32 win32) {
        super(NativeBinding.of("the fake's C runtime and Win32", win32), kernel.descriptorTable, new FakePatience(kernel));
        this.kernel = kernel;
    }

    @Override
    public String name() {
        return kernel.name;
    }

    /** The shared rules' {@code _pipe}, in a fake built with {@code makesPipes()}; else the SPI's refusal. */
    @Override
    public PipeEnds pipe() throws DescriptorException {
        return kernel.makesPipes ? super.pipe() : cannotMakePipes(this);
    }

    /** What a provider without {@code pipe()} answers; no call is made. */
    static PipeEnds cannotMakePipes(PlatformDescriptors provider) throws DescriptorException {
        throw new DescriptorException("pipe()", -1, 0, "the " + provider.name()
                + " provider cannot make pipes (a fake built without makesPipes())");
    }

    /**
     * The scripted wait in a fake built with {@code hostExits()}; else the shared rules' wait,
     * which the model refuses (it has no other processes), so that a host watch polls.
     */
    @Override
    public Optional<ProcessExits> processExits() {
        return kernel.exits.isPresent() ? kernel.exits.map(ProcessExits.class::cast) : super.processExits();
    }

    /** Negative: never chosen automatically. */
    @Override
    public int priority() {
        return -100;
    }
}
