package io.mcpwire.benchmarks.jmh;

import io.mcpwire.stdio.StdioClaim;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One claim and release of the forked JVM's real fd 0 and fd 1 through a provider chosen by name
 * ({@code -p platform=posix,ffm}; {@code ffm} needs JDK 22 or newer and the platform-ffm jar):
 * the private duplicates, the diversions, the restore.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ClaimBenchmark {
    @Param({"posix"})
    public String platform;

    @Setup
    public void choose() {
        System.setProperty("mcpwire.platform", platform);
    }

    @Benchmark
    public boolean claimAndRelease() {
        StdioClaim claim = StdioClaim.acquire();
        if (!claim.platformName().equals(platform)) {
            throw new IllegalStateException("claimed through " + claim.platformName() + ", not " + platform);
        }
        claim.close();
        return claim.isReleased();
    }
}
