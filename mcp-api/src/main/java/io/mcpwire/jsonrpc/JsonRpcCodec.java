package io.mcpwire.jsonrpc;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.json.JsonMapper;

/**
 * Encodes JSON-RPC messages as single lines of UTF-8 and decodes lines back.
 *
 * <p>Encoding writes one message as compact JSON with no raw newline inside (JSON escapes
 * control characters in strings), and without the line terminator, which is the framing's job.
 *
 * <p>Decoding never throws on bad input: it returns a {@link DecodeError} that carries the
 * JSON-RPC code and, when it could be read, the request id, so that a server can answer it.
 * <ul>
 *   <li>{@code -32700} (parse error, null id): not valid UTF-8, not JSON, empty, or JSON
 *       followed by anything but whitespace;</li>
 *   <li>{@code -32600} (invalid request): JSON that is not one valid JSON-RPC 2.0 message
 *       (a batch array, a wrong or missing {@code jsonrpc}, a method that is not a string, an id
 *       that is not a string or an integer, both or neither of {@code result} and {@code error},
 *       a duplicated top-level member, ...), and JSON that exceeds one of the {@link Limits}, holds
 *       a number beyond even a {@code BigDecimal}'s range, or whose trees do not fit in the memory
 *       left.
 *       The id is recovered whenever it was read and valid.</li>
 * </ul>
 * Unknown top-level members are ignored. Instances are thread-safe.
 */
public final class JsonRpcCodec {

    /**
     * Bounds on hostile input, enforced while parsing (Jackson's {@code StreamReadConstraints}),
     * so that a deep or huge document is a decode error, never a stack overflow or a crash.
     *
     * @param maxNestingDepth the deepest nesting of objects and arrays, the message itself
     *                        counting as one
     * @param maxStringLength the longest string value, in chars
     * @param maxNumberLength the longest number, in chars
     * @param maxNameLength   the longest member name, in chars
     * @param maxTokens       the most JSON tokens in one message (each member name, value and
     *                        bracket counting one): what bounds the memory its trees take, some
     *                        100 bytes a token at most, where the size limit alone would let a
     *                        16 MiB line of {@code [],[],...} take half a GiB
     */
    public record Limits(int maxNestingDepth, int maxStringLength, int maxNumberLength, int maxNameLength, int maxTokens) {
        /** The tokens one message may hold unless told otherwise. */
        public static final int DEFAULT_MAX_TOKENS = 1_000_000;
        /**
         * Depth 256, strings of 16 MiB, numbers of 1,000 chars, member names of 50,000 chars,
         * 1,000,000 tokens.
         */
        public static final Limits DEFAULT = new Limits(256, 16 * 1024 * 1024, 1000, 50_000);

        /** Validates the bounds. */
        public Limits {
            if (maxNestingDepth < 1 || maxStringLength < 1 || maxNumberLength < 1 || maxNameLength < 1 || maxTokens < 1) {
                throw new IllegalArgumentException("limits must be positive: depth " + maxNestingDepth + ", string " + maxStringLength
                        + ", number " + maxNumberLength + ", name " + maxNameLength + ", tokens " + maxTokens);
            }
        }

        /** The given bounds and {@link #DEFAULT_MAX_TOKENS} tokens. */
        public Limits(int maxNestingDepth, int maxStringLength, int maxNumberLength, int maxNameLength) {
            this(maxNestingDepth, maxStringLength, maxNumberLength, maxNameLength, DEFAULT_MAX_TOKENS);
        }
    }

    private static final JsonRpcCodec DEFAULT = new JsonRpcCodec(Limits.DEFAULT);

    private final JsonFactory factory;
    /** The factory with nothing between root values, for an encoder's generator that writes message after message. */
    private final JsonFactory sequenceFactory;
    private final Limits limits;
    private volatile JsonMapper mapper;

    /** Returns a codec with the given limits. */
    public JsonRpcCodec(Limits limits) {
        this.limits = limits;
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxNestingDepth())
                .maxStringLength(limits.maxStringLength())
                .maxNumberLength(limits.maxNumberLength())
                .maxNameLength(limits.maxNameLength())
                .maxTokenCount(limits.maxTokens())
                .build();
        // Trees are read and written here on the streaming API: building a databind mapper costs
        // a few hundred milliseconds of start-up, which a stdio server pays before its first answer.
        this.factory = JsonFactory.builder()
                .streamReadConstraints(constraints)
                // Parsers and generators are made per message on a few long-lived threads: a
                // thread-local buffer pool costs nothing per message, unlike the default deque pool.
                .recyclerPool(JsonRecyclerPools.threadLocalPool())
                // encode(message, out) writes into the caller's stream and leaves it open.
                .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                .build();
        this.sequenceFactory = factory.rebuild().rootValueSeparator((String) null).build();
    }

    /** Returns the shared codec with {@link Limits#DEFAULT}. */
    public static JsonRpcCodec standard() {
        return DEFAULT;
    }

    /** The limits this codec enforces. */
    public Limits limits() {
        return limits;
    }

    /**
     * A Jackson mapper with this codec's limits, for converting {@code params} and results to and
     * from Java objects. Built on first use: the codec itself does not need it. The token bound is
     * left out: it bounds what one message from the wire may build, not a value converted here.
     */
    public JsonMapper mapper() {
        JsonMapper m = mapper;
        if (m == null) {
            synchronized (this) {
                m = mapper;
                if (m == null) {
                    StreamReadConstraints unbounded = factory.streamReadConstraints().rebuild()
                            .maxTokenCount(StreamReadConstraints.DEFAULT_MAX_TOKEN_COUNT).build();
                    mapper = m = JsonMapper.builder(factory.rebuild().streamReadConstraints(unbounded).build()).build();
                }
            }
        }
        return m;
    }

    // ---------------------------------------------------------------- encoding

    /** Encodes one message as UTF-8 JSON, without a line terminator. */
    public byte[] encode(JsonRpcMessage message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        encode(message, out);
        return out.toByteArray();
    }

    /** Encodes one message as UTF-8 JSON onto {@code out}, without a line terminator; leaves {@code out} open. */
    public void encode(JsonRpcMessage message, OutputStream out) {
        try (JsonGenerator g = factory.createGenerator(ObjectWriteContext.empty(), out)) {
            new MessageWriter(g, this).write(message);
        }
    }

    /**
     * An encoder that writes message after message onto {@code out} through one generator, for a
     * thread that sends many; not thread-safe.
     */
    public MessageEncoder encoder(OutputStream out) {
        return new MessageEncoder(this, out);
    }

    /** A writer over a generator onto {@code out} that writes root values back to back. */
    MessageWriter writerOnto(OutputStream out) {
        return new MessageWriter(sequenceFactory.createGenerator(ObjectWriteContext.empty(), out), this);
    }

    /** Encodes one message as a Java string, for logs and tests. */
    public String encodeToString(JsonRpcMessage message) {
        return new String(encode(message), StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- decoding

    /** Decodes one line given as a string. */
    public DecodeResult decode(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return decode(bytes, 0, bytes.length);
    }

    /** Decodes one line (without its terminator) from {@code bytes[offset, offset + length)}. */
    public DecodeResult decode(byte[] bytes, int offset, int length) {
        int invalid = Utf8.firstInvalid(bytes, offset, length);
        if (invalid >= 0) {
            return DecodeError.parseError("invalid UTF-8 at byte " + invalid);
        }
        return MessageReader.read(factory, bytes, offset, length);
    }
}
