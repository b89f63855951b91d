package io.mcpwire.check;

import io.mcpwire.protocol.McpProtocol;
import io.mcpwire.protocol.MetaKeys;
import io.mcpwire.protocol.ProtocolEra;

/**
 * How the checker speaks in one era: in the modern era every request's params carry the
 * {@code _meta} with the version, the client and its (empty) capabilities; in the legacy era they
 * are sent as they are.
 *
 * @param era     the era
 * @param version the protocol version: agreed by {@code initialize} (legacy) or named in every request (modern)
 * @param client  the client's name, as the server is told it
 */
public record Dialect(ProtocolEra era, String version, String client) {

    /** The modern era at {@code version}. */
    public static Dialect modern(String version, String client) {
        return new Dialect(ProtocolEra.MODERN, version, client);
    }

    /** The legacy era, asking {@code initialize} for {@code version}. */
    public static Dialect legacy(String version, String client) {
        return new Dialect(ProtocolEra.LEGACY, version, client);
    }

    /**
     * {@code params}, the text of a JSON object, with this era's {@code _meta} put first (modern);
     * as it is (legacy). Null stands for no params, and becomes the {@code _meta} alone (modern).
     */
    public String params(String params) {
        if (era == ProtocolEra.LEGACY) {
            return params;
        }
        // Written as text, not through a JSON tree's toString, which needs Jackson's databind mapper
        // (and jackson-annotations at the version databind wants) where a framework may bring another.
        String meta = "{\"_meta\":{" + JsonText.string(MetaKeys.PROTOCOL_VERSION) + ":" + JsonText.string(version) + ","
                + JsonText.string(MetaKeys.CLIENT_INFO) + ":{\"name\":" + JsonText.string(client) + ",\"version\":\"1\"},"
                + JsonText.string(MetaKeys.CLIENT_CAPABILITIES) + ":{}}";
        String body = params == null ? "{}" : params.strip();
        return body.equals("{}") ? meta + "}" : meta + "," + body.substring(1);
    }

    /** The cheapest request of the era, for round trips and pipelined batches: {@code ping}, or {@code server/discover}. */
    public String roundTrip() {
        return era == ProtocolEra.LEGACY ? McpProtocol.PING : McpProtocol.SERVER_DISCOVER;
    }

    /** The request whose answer opens a session: {@code initialize}, or {@code server/discover}. */
    public String opening() {
        return era == ProtocolEra.LEGACY ? McpProtocol.INITIALIZE : McpProtocol.SERVER_DISCOVER;
    }
}
