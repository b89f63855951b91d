package io.mcpwire.quarkus.deployment;

import static io.quarkus.deployment.annotations.ExecutionTime.RUNTIME_INIT;
import static io.quarkus.deployment.annotations.ExecutionTime.STATIC_INIT;

import io.mcpwire.quarkus.McpwireMessageHandler;
import io.mcpwire.quarkus.McpwirePrepareRecorder;
import io.mcpwire.quarkus.McpwireRecorder;
import io.quarkiverse.mcp.server.stdio.deployment.McpStdioExplicitInitializationBuildItem;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeansRuntimeInitBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Consume;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.LogHandlerBuildItem;
import io.quarkus.deployment.builditem.ShutdownContextBuildItem;
import io.quarkus.deployment.pkg.steps.NativeOrNativeSourcesBuild;

/**
 * The build steps of mcpwire's Quarkus extension: Quarkus MCP's own stdio start kept off (it would
 * null {@code System.out} and read {@code System.in}), the claim recorded before Quarkus' logging
 * set-up, and the session served over mcpwire once the beans are ready.
 */
public class McpwireProcessor {

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem("mcpwire");
    }

    /** Quarkus MCP's stdio processor starts its own transport only when no extension asks to start it itself. */
    @BuildStep
    McpStdioExplicitInitializationBuildItem startedByMcpwire() {
        return new McpStdioExplicitInitializationBuildItem();
    }

    @BuildStep
    AdditionalBeanBuildItem messageHandler() {
        return AdditionalBeanBuildItem.unremovableOf(McpwireMessageHandler.class);
    }

    /**
     * What the claim and the transport need, loaded on a thread of its own while the beans are
     * built; not for a native image, whose static initialisation runs at build time.
     */
    @BuildStep(onlyIfNot = NativeOrNativeSourcesBuild.class)
    @Record(STATIC_INIT)
    void prepareInBackground(McpwirePrepareRecorder recorder) {
        recorder.prepareInBackground();
    }

    /**
     * The claim, at run time, before Quarkus' logging starts: the logging set-up consumes every
     * {@link LogHandlerBuildItem}, so this step is recorded ahead of it.
     */
    @BuildStep
    @Record(RUNTIME_INIT)
    LogHandlerBuildItem claimBeforeLogging(McpwireRecorder recorder) {
        return new LogHandlerBuildItem(recorder.claimBeforeLogging());
    }

    /** The session, once the synthetic beans exist: where Quarkus MCP's own stdio start would have run. */
    @BuildStep
    @Record(RUNTIME_INIT)
    @Consume(SyntheticBeansRuntimeInitBuildItem.class)
    void serve(McpwireRecorder recorder, ShutdownContextBuildItem shutdown) {
        recorder.serve(shutdown);
    }
}
