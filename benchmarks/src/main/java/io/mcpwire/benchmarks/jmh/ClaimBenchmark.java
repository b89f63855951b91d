package io.mcpwire.benchmarks.jmh;

import io.mcpwire.platform.posix.PosixDescriptors;
import io.mcpwire.stdio.StdioClaim;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One claim and release of the forked JVM's real fd 0 and fd 1 through the POSIX provider: the
 * private duplicates, the diversions, the restore.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ClaimBenchmark {
    private final PosixDescriptors posix = new PosixDescriptors();

    @Benchmark
    public boolean claimAndRelease() {
        StdioClaim claim = StdioClaim.builder().platform(posix).acquire();
        claim.close();
        return claim.isReleased();
    }
}
