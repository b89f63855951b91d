package io.mcpwire.benchmarks.peers;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonRecyclerPools;

/**
 * The floor ({@code line-echo}): the least a JVM server does to answer the harness's legacy-era
 * requests correctly, tuned as a performance engineer would write it. Bytes in (no decoding into
 * a {@code String} per line), a streaming parse of each line's bytes that keeps only what the
 * answer needs, every answer written through one long-lived generator into one buffer, written to
 * fd 1 when no whole line is left to answer. No isolation, no validation, no tree.
 *
 * <p>With {@code --writer-thread} a second thread writes the answers while the first parses the
 * next lines (two buffers swapped between them); {@code benchmarks/run --only
 * line-echo,line-echo-2t} compares the two, and the full run measures both.
 */
public final class TunedEchoServer {
    /** Answers are handed to fd 1 once this much is buffered, whatever is left to read. */
    private static final int WRITE_AT = 64 * 1024;

    private final JsonFactory json = JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.threadLocalPool())
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .rootValueSeparator((String) null)
            .build();
    private final InputStream in = new FileInputStream(FileDescriptor.in);
    private final AnswerSink sink;
    private final JsonGenerator out;
    private byte[] buffer = new byte[1 << 16];
    private int start;
    private int end;

    private TunedEchoServer(AnswerSink sink) {
        this.sink = sink;
        this.out = json.createGenerator(ObjectWriteContext.empty(), sink);
    }

    public static void main(String[] args) throws Exception {
        FileOutputStream fd1 = new FileOutputStream(FileDescriptor.out);
        AnswerSink sink = List.of(args).contains("--writer-thread") ? AnswerSink.withWriterThread(fd1) : AnswerSink.direct(fd1);
        new TunedEchoServer(sink).serve();
    }

    private void serve() throws IOException, InterruptedException {
        while (true) {
            int lineEnd = nextNewline();
            if (lineEnd < 0) {
                sink.handOver(); // nothing whole left to answer: write before waiting for more
                if (!fill()) {
                    break;
                }
                continue;
            }
            answer(start, lineEnd - start);
            start = lineEnd + 1;
            if (sink.size() >= WRITE_AT) {
                sink.handOver();
            }
        }
        sink.finish();
    }

    private int nextNewline() {
        for (int i = start; i < end; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Reads more after what is left of a line; false at end of input. */
    private boolean fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        if (end == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        int n = in.read(buffer, end, buffer.length - end);
        if (n < 0) {
            return false;
        }
        end += n;
        return true;
    }

    /** The parts of a request its answer needs; one, reset for each line. */
    private static final class Request {
        long numericId;
        String stringId;
        String method;
        String text;
        int kib;
        String protocolVersion;

        Request reset() {
            numericId = -1;
            stringId = null;
            method = "";
            text = "";
            kib = -1;
            protocolVersion = "";
            return this;
        }
    }

    private final Request request = new Request();

    private void answer(int offset, int length) throws IOException {
        Request r = request.reset();
        try (JsonParser p = json.createParser(ObjectReadContext.empty(), buffer, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return; // not a request: nothing to answer, as the naive floor
            }
            readMembers(p, r, 0);
        }
        if (r.numericId < 0 && r.stringId == null) {
            return; // a notification
        }
        out.writeStartObject();
        out.writeStringProperty("jsonrpc", "2.0");
        out.writeName("id");
        if (r.stringId != null) {
            out.writeString(r.stringId);
        } else {
            out.writeNumber(r.numericId);
        }
        out.writeName("result");
        out.writeStartObject();
        switch (r.method) {
            case "initialize" -> {
                out.writeStringProperty("protocolVersion", r.protocolVersion);
                out.writeName("capabilities");
                out.writeStartObject();
                out.writeName("tools");
                out.writeStartObject();
                out.writeEndObject();
                out.writeEndObject();
                out.writeName("serverInfo");
                out.writeStartObject();
                out.writeStringProperty("name", "line-echo");
                out.writeStringProperty("version", "1");
                out.writeEndObject();
            }
            case "tools/call" -> {
                out.writeName("content");
                out.writeStartArray();
                out.writeStartObject();
                out.writeStringProperty("type", "text");
                out.writeStringProperty("text", r.kib >= 0 ? "x".repeat(r.kib * 1024) : r.text);
                out.writeEndObject();
                out.writeEndArray();
                out.writeBooleanProperty("isError", false);
            }
            case "tools/list" -> {
                out.writeName("tools");
                out.writeStartArray();
                out.writeEndArray();
            }
            default -> { } // ping and the rest: an empty result
        }
        out.writeEndObject();
        out.writeEndObject();
        out.flush(); // into the sink's buffer, not to fd 1
        sink.write('\n');
    }

    /** Reads an object's members into {@code r}: the request at depth 0, its params at 1, the arguments at 2. */
    private static void readMembers(JsonParser p, Request r, int depth) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (depth == 0 && name.equals("id")) {
                if (value == JsonToken.VALUE_NUMBER_INT) {
                    r.numericId = p.getLongValue();
                } else if (value == JsonToken.VALUE_STRING) {
                    r.stringId = p.getString();
                }
            } else if (depth == 0 && name.equals("method")) {
                r.method = p.getString();
            } else if (value == JsonToken.START_OBJECT && (depth == 0 && name.equals("params") || depth == 1 && name.equals("arguments"))) {
                readMembers(p, r, depth + 1);
            } else if (depth == 1 && name.equals("protocolVersion")) {
                r.protocolVersion = p.getString();
            } else if (depth == 2 && name.equals("text")) {
                r.text = p.getString();
            } else if (depth == 2 && name.equals("kib")) {
                r.kib = p.getIntValue();
            } else {
                p.skipChildren();
            }
        }
    }
}
