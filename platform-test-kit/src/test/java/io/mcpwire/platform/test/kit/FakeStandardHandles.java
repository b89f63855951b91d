package io.mcpwire.platform.test.kit;

import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.platform.test.FakeJvm;
import io.mcpwire.platform.test.FakeProcess;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The fake Windows model's standard descriptors, slots and JVM start-up handles, as the provider contract sees them. */
final class FakeStandardHandles implements StandardHandles {
    private final FakeProcess fake;
    private Optional<FakeJvm> jvm = Optional.empty();

    FakeStandardHandles(FakeProcess fake) {
        this.fake = fake;
    }

    @Override
    public String descriptor(int fd) {
        return fake.describe(fd);
    }

    @Override
    public String slot(int fd) {
        return fake.stdHandle(fd);
    }

    @Override
    public String startupValue(int fd) {
        return fake.jvmHandle(fd);
    }

    @Override
    public CompletableFuture<Object> blockedStartupRead() {
        FakeJvm installed = FakeJvm.install(fake);
        jvm = Optional.of(installed);
        InputStream systemIn = System.in;
        CompletableFuture<Object> read = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                read.complete(systemIn.read());
            } catch (IOException e) {
                read.complete(e);
            }
        }, "a thread reading System.in since before the move");
        reader.setDaemon(true);
        reader.start();
        BlockedThreads.awaitWaitingIn(reader, "io.mcpwire.platform.test.FakeFile", Duration.ofSeconds(10));
        return read;
    }

    @Override
    public void close() {
        jvm.ifPresent(FakeJvm::exit);
        jvm = Optional.empty();
    }
}
