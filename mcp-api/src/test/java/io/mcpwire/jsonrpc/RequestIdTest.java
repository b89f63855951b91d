package io.mcpwire.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ids are map keys for pending requests: equal by kind and value, hashed alike when equal. */
class RequestIdTest {

    @Test
    void idsAreEqualByKindAndValue() {
        assertEquals(RequestId.of(7), RequestId.of(7));
        assertEquals(RequestId.of(7).hashCode(), RequestId.of(7).hashCode());
        assertEquals(RequestId.of("a"), RequestId.of("a"));
        assertEquals(RequestId.of("a").hashCode(), RequestId.of("a").hashCode());
        assertNotEquals(RequestId.of(7), RequestId.of(8));
        assertNotEquals(RequestId.of("7"), RequestId.of(7), "a string id is never a number id");
        assertNotEquals(RequestId.of(7), RequestId.of("7"));
        assertNotEquals(RequestId.of("a"), null);
    }

    @Test
    void idsFindTheirEntriesInAHashMap() {
        Map<RequestId, String> pending = new HashMap<>();
        pending.put(RequestId.of(1), "number");
        pending.put(RequestId.of("1"), "string");
        pending.put(RequestId.of(Long.MIN_VALUE), "smallest");
        assertEquals("number", pending.get(RequestId.of(1)));
        assertEquals("string", pending.get(RequestId.of("1")));
        assertEquals("smallest", pending.get(RequestId.of(Long.MIN_VALUE)));
        assertEquals(3, pending.size());
    }

    @Test
    void aStringIdNeedsAValue() {
        assertThrows(NullPointerException.class, () -> RequestId.of((String) null));
    }
}
