package io.mcpwire.sdkbridge;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.AudioContent;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.PromptReference;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.SamplingMessage;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A server written with the official SDK's server API that offers what the MCP conformance
 * suite's server scenarios call for (tools, resources, prompts, logging, completion, progress,
 * sampling, elicitation), over the bridge ({@code mcpwire}) or over the SDK's own
 * {@code StdioServerTransportProvider} ({@code official}). Run by {@code interop/conformance}.
 */
public final class ConformanceServer {
    /** A 1x1 PNG. */
    static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
    /** A WAV header with no samples. */
    static final String WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";
    private static final Map<String, Object> NO_ARGUMENTS = Map.of("type", "object", "properties", Map.of());

    private ConformanceServer() {
    }

    public static void main(String[] args) {
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        boolean official = args.length > 0 && args[0].equals("official");
        McpServerTransportProvider transport = official
                ? new StdioServerTransportProvider(mapper)
                : new McpwireStdioServerTransportProvider(mapper);
        McpServer.sync(transport)
                .serverInfo("conformance-" + (official ? "official-stdio" : "mcpwire"), "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(false).prompts(false).resources(true, false)
                        .logging().completions().build())
                .tools(tools())
                .resources(resources())
                .resourceTemplates(new SyncResourceTemplateSpecification(
                        ResourceTemplate.builder("test://template/{id}/data", "template").description("A resource template")
                                .mimeType("application/json").build(),
                        (exchange, request) -> {
                            String id = request.uri().replaceAll("^test://template/(.+)/data$", "$1");
                            return new ReadResourceResult(List.of(new TextResourceContents(request.uri(), "application/json",
                                    "{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id + "\"}")));
                        }))
                .prompts(prompts())
                .completions(new SyncCompletionSpecification(new PromptReference("test_prompt_with_arguments"),
                        (exchange, request) -> new CompleteResult(new CompleteResult.CompleteCompletion(
                                List.of("paris", "park", "party"), 3, false))))
                .build();
    }

    private static SyncToolSpecification tool(String name, Map<String, Object> schema,
                                              BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> body) {
        return SyncToolSpecification.builder()
                .tool(Tool.builder(name, schema).description("Conformance tool " + name).build())
                .callHandler(body)
                .build();
    }

    private static CallToolResult result(Content... content) {
        return CallToolResult.builder().content(List.of(content)).isError(false).build();
    }

    /** The work a tool does between its notifications, as the conformance suite's reference server has it; no test waits on it. */
    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<SyncToolSpecification> tools() {
        List<SyncToolSpecification> tools = new ArrayList<>();
        tools.add(tool("test_simple_text", NO_ARGUMENTS, (x, r) -> result(new TextContent("This is a simple text response for testing."))));
        tools.add(tool("test_image_content", NO_ARGUMENTS, (x, r) -> result(new ImageContent(null, PNG, "image/png"))));
        tools.add(tool("test_audio_content", NO_ARGUMENTS, (x, r) -> result(new AudioContent(null, WAV, "audio/wav"))));
        tools.add(tool("test_embedded_resource", NO_ARGUMENTS, (x, r) -> result(new EmbeddedResource(null,
                new TextResourceContents("test://embedded-resource", "text/plain", "This is an embedded resource content.")))));
        tools.add(tool("test_multiple_content_types", NO_ARGUMENTS, (x, r) -> result(
                new TextContent("Multiple content types test:"),
                new ImageContent(null, PNG, "image/png"),
                new EmbeddedResource(null, new TextResourceContents("test://mixed-content-resource", "application/json",
                        "{\"test\":\"data\",\"value\":123}")))));
        tools.add(tool("test_tool_with_logging", NO_ARGUMENTS, (x, r) -> {
            for (String message : List.of("Tool execution started", "Tool processing data", "Tool execution completed")) {
                x.loggingNotification(new LoggingMessageNotification(LoggingLevel.INFO, "conformance", message));
                pause();
            }
            return result(new TextContent("Tool with logging executed successfully"));
        }));
        tools.add(tool("test_error_handling", NO_ARGUMENTS, (x, r) -> CallToolResult.builder()
                .content(List.of(new TextContent("This tool intentionally returns an error for testing"))).isError(true).build()));
        tools.add(tool("test_tool_with_progress", NO_ARGUMENTS, (x, r) -> {
            Object token = r.meta() != null ? r.meta().get("progressToken") : null;
            for (double progress : new double[] {0, 50, 100}) {
                if (token != null) {
                    x.progressNotification(new ProgressNotification(token, progress, 100.0, "progress " + (int) progress));
                }
                pause();
            }
            return result(new TextContent("Tool with progress executed successfully"));
        }));
        tools.add(tool("test_sampling", Map.of("type", "object", "properties",
                Map.of("prompt", Map.of("type", "string", "description", "The prompt to send to the LLM")), "required", List.of("prompt")),
                (x, r) -> {
                    CreateMessageResult answer = x.createMessage(CreateMessageRequest.builder(List.of(new SamplingMessage(Role.USER,
                            new TextContent(String.valueOf(r.arguments().get("prompt"))))), 100).build());
                    String text = answer.content() instanceof TextContent ? ((TextContent) answer.content()).text() : String.valueOf(answer.content());
                    return result(new TextContent("LLM response: " + text));
                }));
        tools.add(tool("test_elicitation", Map.of("type", "object", "properties",
                Map.of("message", Map.of("type", "string", "description", "The message to show the user")), "required", List.of("message")),
                (x, r) -> elicit(x, String.valueOf(r.arguments().get("message")), Map.of("type", "object",
                        "properties", Map.of("username", Map.of("type", "string", "description", "User's response"),
                                "email", Map.of("type", "string", "description", "User's email address")),
                        "required", List.of("username", "email")), "User response: ")));
        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put("name", Map.of("type", "string", "default", "John Doe"));
        defaults.put("age", Map.of("type", "integer", "default", 30));
        defaults.put("score", Map.of("type", "number", "default", 95.5));
        defaults.put("status", Map.of("type", "string", "enum", List.of("active", "inactive", "pending"), "default", "active"));
        defaults.put("verified", Map.of("type", "boolean", "default", true));
        tools.add(tool("test_elicitation_sep1034_defaults", NO_ARGUMENTS, (x, r) -> elicit(x, "Please review and update the form fields with defaults",
                Map.of("type", "object", "properties", defaults), "Elicitation completed: ")));
        Map<String, Object> enums = new LinkedHashMap<>();
        enums.put("untitledSingle", Map.of("type", "string", "enum", List.of("option1", "option2", "option3")));
        enums.put("titledSingle", Map.of("type", "string", "oneOf", List.of(Map.of("const", "value1", "title", "First Option"),
                Map.of("const", "value2", "title", "Second Option"), Map.of("const", "value3", "title", "Third Option"))));
        enums.put("legacyEnum", Map.of("type", "string", "enum", List.of("opt1", "opt2", "opt3"),
                "enumNames", List.of("Option One", "Option Two", "Option Three")));
        enums.put("untitledMulti", Map.of("type", "array", "items", Map.of("type", "string", "enum", List.of("option1", "option2", "option3"))));
        enums.put("titledMulti", Map.of("type", "array", "items", Map.of("anyOf", List.of(Map.of("const", "value1", "title", "First Choice"),
                Map.of("const", "value2", "title", "Second Choice"), Map.of("const", "value3", "title", "Third Choice")))));
        tools.add(tool("test_elicitation_sep1330_enums", NO_ARGUMENTS, (x, r) -> elicit(x, "Please select options from the enum fields",
                Map.of("type", "object", "properties", enums), "Elicitation completed: ")));
        Map<String, Object> schema2020 = new LinkedHashMap<>();
        schema2020.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema2020.put("type", "object");
        schema2020.put("$defs", Map.of("address", Map.of("type", "object", "properties",
                Map.of("street", Map.of("type", "string"), "city", Map.of("type", "string")))));
        schema2020.put("properties", Map.of("name", Map.of("type", "string"), "address", Map.of("$ref", "#/$defs/address")));
        schema2020.put("additionalProperties", false);
        tools.add(tool("json_schema_2020_12_tool", schema2020, (x, r) -> result(new TextContent("JSON Schema 2020-12 tool called"))));
        return tools;
    }

    private static CallToolResult elicit(McpSyncServerExchange x, String message, Map<String, Object> schema, String prefix) {
        ElicitResult answer = x.createElicitation(ElicitRequest.builder(message, schema).build());
        return result(new TextContent(prefix + "action=" + answer.action().name().toLowerCase() + ", content=" + answer.content()));
    }

    private static List<SyncResourceSpecification> resources() {
        return List.of(
                new SyncResourceSpecification(Resource.builder("test://static-text", "static-text")
                        .description("A static text resource").mimeType("text/plain").build(),
                        (x, r) -> new ReadResourceResult(List.of(new TextResourceContents("test://static-text", "text/plain",
                                "This is the content of the static text resource.")))),
                new SyncResourceSpecification(Resource.builder("test://static-binary", "static-binary")
                        .description("A static binary resource").mimeType("image/png").build(),
                        (x, r) -> new ReadResourceResult(List.of(new BlobResourceContents("test://static-binary", "image/png", PNG)))),
                new SyncResourceSpecification(Resource.builder("test://watched-resource", "watched-resource")
                        .description("A resource that can be subscribed to").mimeType("text/plain").build(),
                        (x, r) -> new ReadResourceResult(List.of(new TextResourceContents("test://watched-resource", "text/plain",
                                "This is a watched resource content.")))));
    }

    private static List<SyncPromptSpecification> prompts() {
        return List.of(
                new SyncPromptSpecification(new Prompt("test_simple_prompt", "A simple prompt for testing", List.of()),
                        (x, r) -> new GetPromptResult("simple", List.of(new PromptMessage(Role.USER,
                                new TextContent("This is a simple prompt for testing."))))),
                new SyncPromptSpecification(new Prompt("test_prompt_with_arguments", "A prompt with arguments", List.of(
                        new PromptArgument("arg1", "First test argument", true), new PromptArgument("arg2", "Second test argument", true))),
                        (x, r) -> new GetPromptResult("with arguments", List.of(new PromptMessage(Role.USER, new TextContent(
                                "Prompt with arguments: arg1='" + r.arguments().get("arg1") + "', arg2='" + r.arguments().get("arg2") + "'"))))),
                new SyncPromptSpecification(new Prompt("test_prompt_with_embedded_resource", "A prompt with an embedded resource",
                        List.of(new PromptArgument("resourceUri", "URI of the resource to embed", true))),
                        (x, r) -> new GetPromptResult("embedded resource", List.of(
                                new PromptMessage(Role.USER, new EmbeddedResource(null, new TextResourceContents(
                                        String.valueOf(r.arguments().get("resourceUri")), "text/plain", "Embedded resource content for testing."))),
                                new PromptMessage(Role.USER, new TextContent("Please process the embedded resource above."))))),
                new SyncPromptSpecification(new Prompt("test_prompt_with_image", "A prompt with an image", List.of()),
                        (x, r) -> new GetPromptResult("image", List.of(
                                new PromptMessage(Role.USER, new ImageContent(null, PNG, "image/png")),
                                new PromptMessage(Role.USER, new TextContent("Please analyze the image above."))))));
    }
}
