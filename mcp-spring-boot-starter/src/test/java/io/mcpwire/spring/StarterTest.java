package io.mcpwire.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.test.FakeProcess;
import io.mcpwire.platform.test.TableSnapshot;
import io.mcpwire.sdkbridge.McpwireStdioServerTransportProvider;
import io.mcpwire.stdio.ClaimState;
import io.mcpwire.stdio.StdioClaim;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * Real Spring applications (Boot's whole start-up, the starter found through its factories and
 * auto-configuration files) over the fake descriptor table: the claim is taken before the
 * banner and is the one the transport serves; nothing at all happens when the application is
 * not a Spring AI MCP server in stdio mode.
 */
class StarterTest {
    private FakeProcess fake;
    private TableSnapshot before;
    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();
    /** Whether the claim was held each time the banner was printed. */
    private final List<Boolean> claimedAtBanner = new ArrayList<>();

    @EnableAutoConfiguration
    @Configuration(proxyBeanMethods = false)
    static class App {
    }

    @BeforeEach
    void fakeTable() {
        fake = FakeProcess.withPipes();
        before = fake.snapshot();
        FakeProcess.setShared(fake);
        System.setProperty("mcpwire.platform", "fake");
    }

    @AfterEach
    void release() {
        contexts.forEach(ConfigurableApplicationContext::close);
        EarlyStdioClaim.take().ifPresent(StdioClaim::close);
        System.clearProperty("mcpwire.platform");
        FakeProcess.setShared(null);
    }

    private ConfigurableApplicationContext run(ClassLoader loader, String... properties) {
        Banner banner = (environment, source, out) -> claimedAtBanner.add(EarlyStdioClaim.take().isPresent());
        ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .resourceLoader(new DefaultResourceLoader(loader))
                .web(WebApplicationType.NONE)
                .banner(banner)
                .properties(properties)
                .run();
        contexts.add(context);
        return context;
    }

    private ConfigurableApplicationContext run(String... properties) {
        return run(getClass().getClassLoader(), properties);
    }

    @Test
    void aStdioServerIsClaimedBeforeTheBannerAndServedOverThatClaim() {
        ConfigurableApplicationContext context = run("spring.ai.mcp.server.stdio=true", "mcpwire.exit-at-end-of-input=false");
        assertEquals(List.of(true), claimedAtBanner, "the claim was held when the banner was printed");
        StdioClaim early = EarlyStdioClaim.take().orElseThrow();
        assertEquals(ClaimState.DIVERTED, early.outputState());
        McpServerTransportProviderBase provider = context.getBean(McpServerTransportProviderBase.class);
        McpwireStdioServerTransportProvider bridge = (McpwireStdioServerTransportProvider) provider;
        assertSame(early, bridge.transport().claim().orElseThrow(), "the bridge serves the early claim");
        assertTrue(context.getBeansOfType(SessionEnd.class).isEmpty(), "exit-at-end-of-input=false");
        context.close();
        assertTrue(early.isReleased(), "closing the application releases the claim");
        assertEquals(before, fake.snapshot());
    }

    @Test
    void theSessionEndIsOnByDefault() {
        ConfigurableApplicationContext context = run("spring.ai.mcp.server.stdio=true");
        assertEquals(1, context.getBeansOfType(SessionEnd.class).size());
    }

    @Test
    void nothingHappensWhenStdioModeIsOff() {
        assertUntouched(run("spring.ai.mcp.server.stdio=false"));
        assertUntouched(run());
    }

    @Test
    void nothingHappensWhenMcpwireOrTheServerIsSwitchedOff() {
        assertUntouched(run("spring.ai.mcp.server.stdio=true", "mcpwire.enabled=false"));
        assertUntouched(run("spring.ai.mcp.server.stdio=true", "spring.ai.mcp.server.enabled=false"));
    }

    @Test
    void nothingHappensWithoutSpringAisMcpServer() {
        ClassLoader withoutSpringAi = new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(EarlyStdioClaim.SPRING_AI_MCP_SERVER)) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };
        assertUntouched(run(withoutSpringAi, "spring.ai.mcp.server.stdio=true"));
    }

    @Test
    void theEarlyClaimAndTheLateOneBothHonourTheSettings() throws Exception {
        ConfigurableApplicationContext early = run("spring.ai.mcp.server.stdio=true", "mcpwire.exit-at-end-of-input=false",
                "mcpwire.stray-output=null");
        strayPrint();
        assertEquals("", fake.stderrText(), "stray-output=null: the early claim discards stray output");
        early.close();
        EarlyStdioClaim.take().ifPresent(StdioClaim::close);

        // A banner that gives the early claim back: the auto-configuration then claims itself, with the same settings.
        Banner givesBack = (environment, source, out) -> EarlyStdioClaim.take().ifPresent(StdioClaim::close);
        ConfigurableApplicationContext late = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).banner(givesBack)
                .properties("spring.ai.mcp.server.stdio=true", "mcpwire.exit-at-end-of-input=false", "mcpwire.stray-output=null")
                .run();
        contexts.add(late);
        assertEquals(1, late.getBeansOfType(McpwireStdioServerTransportProvider.class).size(), "served over a claim taken late");
        strayPrint();
        assertEquals("", fake.stderrText(), "the late claim discards stray output too");
        assertEquals(McpwireStdioProperties.class, late.getBean(McpwireStdioProperties.class).getClass(), "the settings are a bean");
    }

    @Test
    void everySettingIsBoundFromTheEnvironment() {
        ConfigurableApplicationContext context = run("spring.ai.mcp.server.stdio=true", "mcpwire.exit-at-end-of-input=false",
                "mcpwire.host-watch=off", "mcpwire.stderr=direct", "mcpwire.stray-output=null", "mcpwire.platform=fake",
                "mcpwire.isolation=required", "mcpwire.children=leave", "mcpwire.children-grace=500ms");
        McpwireStdioProperties settings = context.getBean(McpwireStdioProperties.class);
        assertEquals(new McpwireStdioProperties(true, false, Optional.of("fake"), Optional.of("required"), Optional.of("null"),
                Optional.of("direct"), Optional.of("off"), Optional.of("leave"), Optional.of("500ms")), settings);
        McpwireStdioProperties unset = McpwireStdioProperties.of(new org.springframework.core.env.AbstractEnvironment() { });
        assertEquals(new McpwireStdioProperties(true, true, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty()), unset);
        assertEquals(io.mcpwire.stdio.McpwireSettings.defaults(), unset.settings(), "unset, each is the one default");
    }

    @Test
    @org.junit.jupiter.api.parallel.ResourceLock(org.junit.jupiter.api.parallel.Resources.SYSTEM_PROPERTIES)
    void theSystemPropertiesOfEverySettingTakeEffectUnderTheStarter() throws Exception {
        Map<String, String> properties = Map.of("mcpwire.stray-output", "null", "mcpwire.stderr", "direct",
                "mcpwire.isolation", "required", "mcpwire.host-watch", "off");
        properties.forEach(System::setProperty);
        try {
            ConfigurableApplicationContext context = run("spring.ai.mcp.server.stdio=true", "mcpwire.exit-at-end-of-input=false");
            McpwireStdioServerTransportProvider bridge = context.getBean(McpwireStdioServerTransportProvider.class);
            io.mcpwire.stdio.McpwireSettings used = bridge.transport().settings();
            assertEquals(io.mcpwire.stdio.StrayOutput.nullDevice(), used.strayOutput());
            assertEquals(io.mcpwire.stdio.StderrPolicy.DIRECT, used.stderr());
            assertEquals(io.mcpwire.stdio.Isolation.REQUIRED, used.isolation());
            assertEquals(io.mcpwire.stdio.HostWatch.OFF, used.hostWatch());
            assertEquals(Optional.of("fake"), used.platform(), "the test JVM's -Dmcpwire.platform=fake");
            assertEquals(used.withHostWatch(io.mcpwire.stdio.HostWatch.OFF), bridge.transport().claim().orElseThrow().settings()
                    .withHostWatch(io.mcpwire.stdio.HostWatch.OFF), "the early claim was taken with them");
            strayPrint();
            assertEquals("", fake.stderrText(), "mcpwire.stray-output=null: the stray print was discarded");
        } finally {
            properties.keySet().forEach(System::clearProperty);
        }
    }

    @Test
    void aBadSettingFailsTheStartUpNamingIt() {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> run("spring.ai.mcp.server.stdio=true", "mcpwire.stderr=sometimes"));
        String all = "";
        for (Throwable t = e; t != null; t = t.getCause()) {
            all += t.getMessage() + "\n";
        }
        assertTrue(all.contains("mcpwire.stderr"), all);
        assertTrue(all.contains("guarded or direct"), all);
    }

    /** What a tool's print does: a write to fd 1. */
    private void strayPrint() throws Exception {
        try (var fd1 = fake.provider().open(1)) {
            byte[] text = "a stray print\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            fd1.write(text, 0, text.length);
        }
    }

    private void assertUntouched(ConfigurableApplicationContext context) {
        assertEquals(Optional.empty(), EarlyStdioClaim.take(), "no claim");
        assertTrue(context.getBeansOfType(McpServerTransportProviderBase.class).isEmpty(), "no transport bean");
        assertFalse(fake.calls().stream().findAny().isPresent(), "the descriptor table was never touched: " + fake.calls());
        assertEquals(before, fake.snapshot());
    }
}
