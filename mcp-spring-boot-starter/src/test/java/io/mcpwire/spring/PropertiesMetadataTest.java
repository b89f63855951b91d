package io.mcpwire.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.AbstractEnvironment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter's configuration metadata (what an IDE completes) describes exactly the properties
 * {@link McpwireStdioProperties} binds, with their types and the defaults the binder gives.
 */
class PropertiesMetadataTest {
    private static final String PREFIX = "mcpwire";
    private static final String SOURCE = McpwireStdioProperties.class.getName();

    @Test
    void theMetadataNamesEveryBoundPropertyWithItsTypeAndSource() throws IOException {
        JsonNode metadata = starterMetadata();
        Map<String, String> described = new LinkedHashMap<>();
        for (JsonNode p : metadata.get("properties")) {
            assertEquals(SOURCE, p.path("sourceType").asString(), p.path("name").asString() + ": sourceType");
            described.put(p.get("name").asString(), p.get("type").asString());
        }
        Map<String, String> bound = new LinkedHashMap<>();
        for (RecordComponent c : McpwireStdioProperties.class.getRecordComponents()) {
            bound.put(PREFIX + "." + kebab(c.getName()), boxedName(c.getGenericType()));
        }
        assertEquals(bound, described);
        JsonNode group = metadata.get("groups").get(0);
        assertEquals(PREFIX, group.get("name").asString());
        assertEquals(SOURCE, group.get("type").asString());
    }

    @Test
    void theMetadataDefaultsAreWhatTheBinderGivesAnEmptyEnvironment() throws Exception {
        McpwireStdioProperties defaults = McpwireStdioProperties.of(new AbstractEnvironment() { });
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        starterMetadata().get("properties").forEach(p -> byName.put(p.get("name").asString(), p.get("defaultValue")));
        for (RecordComponent c : McpwireStdioProperties.class.getRecordComponents()) {
            Object value = c.getAccessor().invoke(defaults);
            JsonNode stated = byName.get(PREFIX + "." + kebab(c.getName()));
            if (value instanceof Optional<?> unset) {
                // Unset, the best provider that can run: the metadata states no default.
                assertEquals(Optional.empty(), unset, c.getName());
                assertTrue(stated == null || stated.isNull(), c.getName() + ": no default stated");
                continue;
            }
            assertNotNull(stated, c.getName() + ": no default in the metadata");
            assertEquals(String.valueOf(value), stated.isString() ? stated.asString() : stated.toString(), c.getName());
        }
    }

    /** The starter's own metadata file, among those of every jar on the class path. */
    private static JsonNode starterMetadata() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        List<URL> files = Collections.list(PropertiesMetadataTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
        List<JsonNode> ours = new ArrayList<>();
        for (URL file : files) {
            try (InputStream in = file.openStream()) {
                JsonNode m = json.readTree(in);
                if (m.path("groups").path(0).path("name").asString().equals(PREFIX)) {
                    ours.add(m);
                }
            }
        }
        assertEquals(1, ours.size(), "metadata files naming " + PREFIX + " among " + files);
        return ours.get(0);
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String boxedName(Type type) {
        if (type instanceof ParameterizedType optional && optional.getRawType() == Optional.class) {
            return optional.getActualTypeArguments()[0].getTypeName();
        }
        return type == boolean.class ? Boolean.class.getName() : type.getTypeName();
    }
}
