package io.mcpwire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.jsonrpc.DecodeError;
import io.mcpwire.jsonrpc.DecodeResult;
import io.mcpwire.jsonrpc.JsonRpcCodec;
import io.mcpwire.jsonrpc.JsonRpcRequest;
import io.mcpwire.jsonrpc.JsonRpcResponse;
import io.mcpwire.jsonrpc.RequestId;
import io.mcpwire.transport.engine.LineFramer;
import io.mcpwire.jsonrpc.TransportClosed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Fuzzing of what the wire feeds the server: random bytes and random JSON in random splits
 * through the framer and the codec, and whole sessions through the transport. The build runs 300
 * tries of each ({@code junit-platform.properties}, a few seconds); a long run by hand:
 * {@code mvn -pl mcp-transport -am test -Dtest=WireFuzzTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Djqwik.tries.default=100000}.
 */
class WireFuzzTest {
    private static final int MAX_LINE = 512;
    private static final JsonRpcCodec CODEC = JsonRpcCodec.standard();

    /** What the framer hands on, line by line. */
    private sealed interface Event {
    }

    private record Line(String bytes) implements Event {
    }

    private record Oversized() implements Event {
    }

    // ------------------------------------------------------------------ the framer

    @Property
    void theFramerSplitsAnyBytesAsTheRulesSayWhateverTheReadSizesAndStaysBounded(
            @ForAll("wireBytes") byte[] input, @ForAll @Size(max = 40) List<@IntRange(min = 1, max = 700) Integer> reads)
            throws IOException {
        LineFramer framer = new LineFramer(MAX_LINE);
        List<Event> events = frame(framer, input, reads);
        for (Event e : events) {
            if (e instanceof Line line) {
                DecodeResult r = CODEC.decode(line.bytes().getBytes(StandardCharsets.ISO_8859_1), 0, line.bytes().length());
                if (r instanceof DecodeError error) {
                    CODEC.encode(error.toResponse()); // never throws, and its answer always encodes
                }
            }
        }
        assertEquals(reference(input), events, () -> "input: " + latin1(input, 0, input.length).replace("\n", "\\n"));
        assertTrue(framer.peakBufferBytes() <= Math.max(64 * 1024, MAX_LINE + 2), "bounded: " + framer.peakBufferBytes());
    }

    @Example
    void aByteOrderMarkIsDroppedAtTheStartOfTheStreamOnlyEvenWhenItArrivesOneByteAtATime() throws IOException {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        byte[] input = concat(bom, (ping + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(new Line(ping)), frame(input, List.of(1, 1, 1, 1)));
        byte[] afterAnOversizedLine = concat(("x".repeat(MAX_LINE + 1) + "\n").getBytes(StandardCharsets.UTF_8), bom,
                "y\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(new Oversized(), new Line(latin1(bom, 0, 3) + "y")), frame(afterAnOversizedLine, List.of()),
                "a mark later in the stream is text, not a mark");
    }

    @Example
    void aBlankLineOverTheLimitIsOversizedWhetherItArrivesWholeOrInPieces() throws IOException {
        byte[] input = (" ".repeat(MAX_LINE + 5) + "\n").getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of(new Oversized()), frame(input, List.of()));
        assertEquals(List.of(new Oversized()), frame(input, List.of(100, 100, 100, 100, 100, 100)));
    }

    private static List<Event> frame(byte[] input, List<Integer> reads) throws IOException {
        return frame(new LineFramer(MAX_LINE), input, reads);
    }

    /** What {@code framer} hands on when {@code input} arrives in reads of the given sizes. */
    private static List<Event> frame(LineFramer framer, byte[] input, List<Integer> reads) throws IOException {
        List<Event> events = new ArrayList<>();
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                events.add(new Line(latin1(buffer, offset, length)));
            }

            @Override
            public void oversized(long length, java.util.Optional<io.mcpwire.jsonrpc.RequestId> id) {
                events.add(new Oversized());
            }
        };
        InputStream in = new SplitInput(input, reads);
        while (framer.readFrom(in, sink)) {
            // each read hands complete lines to the sink
        }
        return events;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * The framing rules, written plainly: a UTF-8 byte order mark at the start of the stream is
     * dropped; {@code \n} ends a line and one {@code \r} before it is dropped; a line longer than
     * the limit is oversized, whatever it holds; a blank one (spaces, tabs, {@code \r}) is skipped;
     * a last line without a terminator counts.
     */
    private static List<Event> reference(byte[] input) {
        int from = input.length >= 3 && (input[0] & 0xFF) == 0xEF && (input[1] & 0xFF) == 0xBB && (input[2] & 0xFF) == 0xBF ? 3 : 0;
        List<Event> out = new ArrayList<>();
        while (from < input.length) {
            int nl = from;
            while (nl < input.length && input[nl] != '\n') {
                nl++;
            }
            int to = nl > from && input[nl - 1] == '\r' && nl < input.length ? nl - 1 : nl;
            if (nl == input.length && to > from && input[to - 1] == '\r') {
                to--; // a last line's \r is dropped too
            }
            if (to - from > MAX_LINE) {
                out.add(new Oversized());
            } else if (!blank(input, from, to)) {
                out.add(new Line(latin1(input, from, to - from)));
            }
            from = nl + 1;
        }
        return out;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    private static String latin1(byte[] b, int off, int len) {
        return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }

    @Provide
    Arbitrary<byte[]> wireBytes() {
        Arbitrary<String> pieces = Arbitraries.oneOf(
                Arbitraries.of("\n", "\r\n", "\r", " ", "\t", "\uFEFF", "{", "}", "\"", "\\", ",", ":"),
                jsonLines().map(l -> l + "\n"),
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.strings().withChars(' ', '\t', 'x').ofMinLength(MAX_LINE - 2).ofMaxLength(MAX_LINE + 3));
        Arbitrary<byte[]> text = pieces.list().ofMaxSize(30).map(l -> String.join("", l).getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(2000);
        return Arbitraries.oneOf(text, raw);
    }

    // ------------------------------------------------------------------ the transport

    @Property
    void everyLineThatNeedsAnAnswerGetsExactlyOneAndNothingElseReachesTheWire(@ForAll("sessions") List<String> lines)
            throws Exception {
        byte[] input = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        Map<String, Integer> owed = expectedAnswers(input);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        StdioTransport t = StdioTransport.builder().streams(new ByteArrayInputStream(input), wire)
                .maxMessageBytes(MAX_LINE).build();
        EchoServer server = new EchoServer(t).start();
        TransportClosed closed = server.awaitClosed();
        assertEquals(TransportClosed.Reason.END_OF_INPUT, closed.reason(), closed::toString);
        assertEquals(0, closed.dropped());
        Map<String, Integer> answered = new HashMap<>();
        for (String out : wire.toString(StandardCharsets.UTF_8).split("\n", -1)) {
            if (out.isEmpty()) {
                continue;
            }
            DecodeResult r = CODEC.decode(out);
            assertTrue(r instanceof DecodeResult.Decoded d && d.message() instanceof JsonRpcResponse,
                    () -> "not a JSON-RPC response on the wire: " + out);
            answered.merge(key(((JsonRpcResponse) ((DecodeResult.Decoded) r).message()).id()), 1, Integer::sum);
        }
        assertEquals(owed, answered, "one answer per request and per undecodable line");
    }

    /** Per id (or "null"): how many answers the lines call for, by the codec's own reading of each line. */
    private static Map<String, Integer> expectedAnswers(byte[] input) throws IOException {
        Map<String, Integer> owed = new HashMap<>();
        LineFramer framer = new LineFramer(MAX_LINE);
        LineFramer.Sink sink = new LineFramer.Sink() {
            @Override
            public void line(byte[] buffer, int offset, int length) {
                DecodeResult r = CODEC.decode(buffer, offset, length);
                if (r instanceof DecodeError e) {
                    owed.merge(key(e.id()), 1, Integer::sum);
                } else if (((DecodeResult.Decoded) r).message() instanceof JsonRpcRequest q) {
                    owed.merge(key(q.id()), 1, Integer::sum);
                }
            }

            @Override
            public void oversized(long length, java.util.Optional<io.mcpwire.jsonrpc.RequestId> id) {
                owed.merge(key(id.orElse(null)), 1, Integer::sum);
            }
        };
        InputStream in = new ByteArrayInputStream(input);
        while (framer.readFrom(in, sink)) {
            // frame it all
        }
        return owed;
    }

    private static String key(RequestId id) {
        return String.valueOf(id);
    }

    @Provide
    Arbitrary<List<String>> sessions() {
        return Arbitraries.oneOf(jsonLines(), Arbitraries.strings().ofMaxLength(60)
                .filter(s -> s.indexOf('\n') < 0)).list().ofMaxSize(40).map(WireFuzzTest::uniqueIds);
    }

    /** Numbers each request-shaped line's id afresh, so that answers can be told apart. */
    private static List<String> uniqueIds(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            out.add(lines.get(i).replace("\"id\":7", "\"id\":" + (1000 + i)));
        }
        return out;
    }

    /** Lines shaped like JSON-RPC, valid and not: requests, notifications, wrong members, truncations. */
    private static Arbitrary<String> jsonLines() {
        Arbitrary<String> method = Arbitraries.of("ping", "echo", "silent-not", "tools/list", "notifications/cancelled");
        Arbitrary<String> member = Arbitraries.of(
                "\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"1.0\"", "\"id\":7", "\"id\":null", "\"id\":{}", "\"id\":1.5",
                "\"params\":{}", "\"params\":[1,2]", "\"params\":3", "\"result\":{}", "\"error\":{\"code\":1,\"message\":\"m\"}",
                "\"x\":[[[[]]]]", "\"id\":\"s\"");
        Arbitrary<String> object = Combinators.combine(method, member.list().ofMaxSize(5))
                .as((m, ms) -> "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + m + "\"" + (ms.isEmpty() ? "" : ",")
                        + String.join(",", ms) + "}");
        Arbitrary<String> loose = member.list().ofMinSize(1).ofMaxSize(5).map(ms -> "{" + String.join(",", ms) + "}");
        Arbitrary<String> truncated = object.flatMap(o -> Arbitraries.integers().between(0, o.length()).map(n -> o.substring(0, n)));
        return Arbitraries.oneOf(object, loose, truncated, Arbitraries.of("[]", "[{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}]",
                "null", "\"str\"", "{}", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"} trailing"));
    }

    /** Hands out {@code input} in reads of the given sizes, then whatever is left. */
    private static final class SplitInput extends InputStream {
        private final byte[] input;
        private final List<Integer> reads;
        private int position;
        private int next;

        SplitInput(byte[] input, List<Integer> reads) {
            this.input = input;
            this.reads = reads;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position == input.length) {
                return -1;
            }
            int want = next < reads.size() ? reads.get(next++) : input.length - position;
            int n = Math.min(Math.min(want, len), input.length - position);
            System.arraycopy(input, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public String toString() {
            return Arrays.toString(input);
        }
    }
}
