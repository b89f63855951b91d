package io.mcpwire.benchmarks.peers;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The naive floor ({@code line-echo-naive}): a plain line loop with Jackson's databind that
 * answers {@code initialize}, {@code ping} and {@code tools/call echo}/{@code payload}, with no
 * isolation, no validation and no threads, written the obvious way: each line decoded into a
 * {@code String}, parsed into a tree, and written through a new generator and array per answer.
 * It flushes when no more input is waiting. {@link TunedEchoServer} is the floor that counts.
 */
public final class NaiveLineEchoServer {
    private NaiveLineEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper json = JsonMapper.builder().build();
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8), 65536);
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 65536);
        String line;
        while ((line = in.readLine()) != null) {
            JsonNode m = json.readTree(line);
            JsonNode id = m.get("id");
            if (id == null) {
                continue;
            }
            ObjectNode response = json.createObjectNode().put("jsonrpc", "2.0").set("id", id);
            ObjectNode result = response.putObject("result");
            String method = m.path("method").asString();
            if (method.equals("initialize")) {
                result.put("protocolVersion", m.path("params").path("protocolVersion").asString());
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "line-echo").put("version", "1");
            } else if (method.equals("tools/call")) {
                JsonNode a = m.path("params").path("arguments");
                String text = a.has("kib") ? "x".repeat(a.get("kib").intValue() * 1024) : a.path("text").asString();
                result.putArray("content").addObject().put("type", "text").put("text", text);
                result.put("isError", false);
            }
            out.write(json.writeValueAsBytes(response));
            out.write('\n');
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
    }
}
