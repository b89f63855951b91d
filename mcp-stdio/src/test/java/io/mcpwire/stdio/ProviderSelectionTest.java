package io.mcpwire.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.stdio.engine.ProviderSelection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProviderSelectionTest {

    @AfterEach
    void clearProperty() {
        System.clearProperty(McpwireSettings.PLATFORM);
        FakeProcess.setShared(null);
    }

    @Test
    void anExplicitProviderWinsOverTheProperty() {
        FakeProcess mine = FakeProcess.builder().name("mine").build();
        System.setProperty(McpwireSettings.PLATFORM, "none");
        assertEquals(Optional.of(mine), ProviderSelection.choose(Optional.of(mine), McpwireSettings.fromSystemProperties().platform(), true).provider());
    }

    @Test
    void thePropertySelectsAProviderByNameEvenWithANegativePriority() {
        FakeProcess shared = FakeProcess.withPipes();
        FakeProcess.setShared(shared);
        System.setProperty(McpwireSettings.PLATFORM, "fake");
        PlatformDescriptors chosen = ProviderSelection.choose(Optional.empty(), McpwireSettings.fromSystemProperties().platform(), true).provider().orElseThrow();
        assertEquals("fake", chosen.name());
        assertSame(shared.descriptorTable(), chosen.descriptorTable(), "the named fake acts on FakeProcess.shared()");
        try (StdioClaim claim = StdioClaim.acquire()) {
            assertEquals("fake", claim.platformName());
            assertTrue(claim.isIsolated());
            assertFalse(shared.isOnWire(0), "the shared fake's fd 0 is diverted");
        }
        assertTrue(shared.isOnWire(0));
    }

    @Test
    void noneTurnsIsolationOff() {
        System.setProperty(McpwireSettings.PLATFORM, "none");
        assertEquals(Optional.empty(), ProviderSelection.choose(Optional.empty(), McpwireSettings.fromSystemProperties().platform(), true).provider());
    }

    @Test
    void aNameThatMatchesNoProviderServesInPlace() {
        System.setProperty(McpwireSettings.PLATFORM, "no-such-provider");
        assertEquals(Optional.empty(), ProviderSelection.choose(Optional.empty(), McpwireSettings.fromSystemProperties().platform(), true).provider());
    }

    @Test
    void theFakeIsNeverChosenAutomatically() {
        Optional<PlatformDescriptors> chosen = ProviderSelection.choose(Optional.empty(), McpwireSettings.fromSystemProperties().platform(), true).provider();
        assertTrue(chosen.map(p -> p.priority() >= 0).orElse(true), "chosen: " + chosen);
    }

    @Test
    void aProviderBuiltForAnotherSpiVersionIsPassedOverSayingSo() {
        FakeProcess fake = FakeProcess.withPipes();
        PlatformDescriptors older = answering(fake, "spiVersion", () -> 1);
        ProviderSelection.Choice c = ProviderSelection.choose(Optional.of(older), McpwireSettings.fromSystemProperties().platform(), false);
        assertEquals(Optional.empty(), c.provider());
        String why = ((ProviderSelection.None) c).why();
        assertTrue(why.contains("built for version 1 of the platform SPI") && why.contains("runs versions "
                + PlatformDescriptors.OLDEST_SPI_VERSION + " to " + PlatformDescriptors.SPI_VERSION), why);
        PlatformDescriptors newer = answering(fake, "spiVersion", () -> PlatformDescriptors.SPI_VERSION + 1);
        assertTrue(ProviderSelection.unusable(newer).orElseThrow().contains("built for version " + (PlatformDescriptors.SPI_VERSION + 1)));
        PlatformDescriptors beforeVersions = answering(fake, "spiVersion", () -> {
            throw new AbstractMethodError("spiVersion"); // a provider compiled before the SPI had versions
        });
        assertTrue(ProviderSelection.unusable(beforeVersions).orElseThrow().contains("built for version 1"));
        PlatformDescriptors throwingProbe = answering(fake, "probe", () -> {
            throw new IllegalStateException("boom");
        });
        assertTrue(ProviderSelection.unusable(throwingProbe).orElseThrow().contains("its probe threw"), "a bad probe never escapes");
        assertEquals(Optional.empty(), ProviderSelection.unusable(fake));
    }

    /** Every method added since the oldest version runs is a default: a provider built for it is still used. */
    @Test
    void aProviderBuiltForAnOlderVersionWhoseAdditionsAreDefaultsIsUsed() {
        FakeProcess fake = FakeProcess.withPipes();
        for (int v = PlatformDescriptors.OLDEST_SPI_VERSION; v <= PlatformDescriptors.SPI_VERSION; v++) {
            int version = v;
            PlatformDescriptors older = answering(fake, "spiVersion", () -> version);
            assertEquals(Optional.empty(), ProviderSelection.unusable(older), "version " + v);
        }
    }

    /**
     * A provider whose JVM streams do not follow the descriptors and that offers no standard-handle
     * duties (a Windows provider built for version 4, whose duties were methods of the SPI itself)
     * is passed over, saying why; with the duties, it is used.
     */
    @Test
    void aProviderThatOwesStandardHandleDutiesAndOffersNoneIsPassedOver() {
        FakeProcess detached = FakeProcess.builder().detachedJvmStreams().build();
        assertEquals(Optional.empty(), ProviderSelection.unusable(detached));
        PlatformDescriptors noDuties = answering(detached, "standardHandleDuties", Optional::empty);
        PlatformDescriptors versionFour = answering(noDuties, "spiVersion", () -> 4);
        String why = ProviderSelection.unusable(versionFour).orElseThrow();
        assertTrue(why.contains("do not follow the descriptors, yet it offers no standard-handle duties")
                && why.contains("built for version 4"), why);
        ProviderSelection.Choice c = ProviderSelection.choose(Optional.of(noDuties), McpwireSettings.fromSystemProperties().platform(), false);
        assertEquals(Optional.empty(), c.provider(), "not bound: a move would leave the slots and the JVM's handles on the wire");
    }

    @Test
    void theBindingReportNamesTheBoundProviderAndWhyEachOtherWasPassedOver() {
        FakeProcess bound = FakeProcess.builder().name("bound").build();
        PlatformDescriptors broken = new FakeUnsupported();
        PlatformDescriptors lower = answering(FakeProcess.builder().name("lower").build(), "priority", () -> 0);
        FakeProcess byName = FakeProcess.builder().name("by-name").build();
        String report = ProviderSelection.bindingReport(bound, List.of(broken, bound, lower, byName),
                Map.of(broken, "not this OS"));
        assertTrue(report.startsWith("platform provider bound bound (platform SPI version " + PlatformDescriptors.SPI_VERSION), report);
        assertTrue(report.contains("unsupported (cannot be used: not this OS)"), report);
        assertTrue(report.contains("lower (not asked: priority 0"), report);
        assertTrue(report.contains("by-name (chosen only by name (priority -100))"), report);
    }

    /** {@code delegate}, except that {@code method} answers what {@code answer} gives. */
    private static PlatformDescriptors answering(PlatformDescriptors delegate, String method, java.util.concurrent.Callable<Object> answer) {
        return (PlatformDescriptors) java.lang.reflect.Proxy.newProxyInstance(ProviderSelectionTest.class.getClassLoader(),
                new Class<?>[] {PlatformDescriptors.class}, (proxy, m, args) -> {
                    if (m.getName().equals(method)) {
                        return answer.call();
                    }
                    try {
                        return m.invoke(delegate, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void anUnsupportedExplicitProviderServesInPlace() {
        PlatformDescriptors unsupported = new FakeUnsupported();
        assertEquals(Optional.empty(), ProviderSelection.choose(Optional.of(unsupported), McpwireSettings.fromSystemProperties().platform(), true).provider());
        StdioClaim claim = StdioClaim.builder().platform(unsupported).input(false).acquire();
        try {
            assertEquals(ClaimState.IN_PLACE, claim.outputState());
            assertEquals("none", claim.platformName());
        } finally {
            claim.close();
        }
    }

    /** A provider that cannot run here. */
    private static final class FakeUnsupported implements PlatformDescriptors {
        @Override public String name() { return "unsupported"; }
        @Override public int spiVersion() { return SPI_VERSION; }
        @Override public io.mcpwire.platform.Probe probe() { return io.mcpwire.platform.Probe.unavailable("not this OS"); }
        @Override public int priority() { return 1; }
        @Override public int duplicateAboveStandard(int fd) { throw new AssertionError(); }
        @Override public int duplicate(int fd) { throw new AssertionError(); }
        @Override public void duplicateOnto(int s, int t) { throw new AssertionError(); }
        @Override public int openNullDevice(io.mcpwire.platform.Access a) { throw new AssertionError(); }
        @Override public void close(int fd) { throw new AssertionError(); }
        @Override public io.mcpwire.platform.FileIdentity identity(int fd) { throw new AssertionError(); }
        @Override public io.mcpwire.platform.DescriptorStream open(int fd) { throw new AssertionError(); }
    }
}
