package io.mcpwire.benchmarks.jmh;

import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcMessage;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.RequestId;
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
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Decoding and encoding one line: a {@code ping}, a 1 KiB and a 1 MiB {@code tools/call}. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {
    @Param({"ping", "1KiB", "1MiB"})
    public String message;

    private final JsonRpcCodec codec = JsonRpcCodec.standard();
    private JsonRpcMessage decoded;
    private byte[] line;

    @Setup
    public void setUp() {
        if (message.equals("ping")) {
            decoded = new JsonRpcRequest(RequestId.of(1), "ping", null);
        } else {
            int size = message.equals("1KiB") ? 1024 : 1024 * 1024;
            ObjectNode params = JsonNodeFactory.instance.objectNode().put("name", "echo");
            params.putObject("arguments").put("text", "a".repeat(size));
            decoded = new JsonRpcRequest(RequestId.of(1), "tools/call", params);
        }
        line = codec.encode(decoded);
    }

    @Benchmark
    public DecodeResult decode() {
        return codec.decode(line, 0, line.length);
    }

    @Benchmark
    public byte[] encode() {
        return codec.encode(decoded);
    }
}
