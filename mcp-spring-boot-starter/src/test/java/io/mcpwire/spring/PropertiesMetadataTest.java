package io.mcpwire.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.stdio.McpwireSettings;
import io.mcpwire.stdio.StrayOutput;
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
    void theMetadataDefaultsAreTheDefaultsTheStarterApplies() throws Exception {
        McpwireStdioProperties unset = McpwireStdioProperties.of(new AbstractEnvironment() { });
        McpwireSettings defaults = unset.settings();
        Map<String, String> applied = Map.of(
                "enabled", String.valueOf(unset.enabled()), "exit-at-end-of-input", String.valueOf(unset.exitAtEndOfInput()),
                "isolation", defaults.isolation().name().toLowerCase(Locale.ROOT),
                "stray-output", defaults.strayOutput() instanceof StrayOutput.Stderr ? "stderr" : String.valueOf(defaults.strayOutput()),
                "stderr", defaults.stderr().name().toLowerCase(Locale.ROOT),
                "host-watch", defaults.hostWatch().name().toLowerCase(Locale.ROOT),
                "children", defaults.children().name().toLowerCase(Locale.ROOT),
                "children-grace", defaults.childrenGrace().toSeconds() + "s");
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        starterMetadata().get("properties").forEach(p -> byName.put(p.get("name").asString(), p.get("defaultValue")));
        for (RecordComponent c : McpwireStdioProperties.class.getRecordComponents()) {
            String name = kebab(c.getName());
            JsonNode stated = byName.get(PREFIX + "." + name);
            if (!applied.containsKey(name)) {
                assertTrue(stated == null || stated.isNull(), name + ": unset, the best provider that can run: no default stated");
                continue;
            }
            assertNotNull(stated, name + ": no default in the metadata");
            assertEquals(applied.get(name), stated.isString() ? stated.asString() : stated.toString(), name);
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
