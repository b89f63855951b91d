package io.mcpwire.platform.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mcpwire.platform.PlatformDescriptors;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The service-loader face of the shared fake forwards every SPI method, defaults included. */
class SharedFakeProviderTest {

    @Test
    void everyMethodOfTheSpiIsForwardedSoNoDefaultBypassesTheFake() throws Exception {
        List<String> inherited = new ArrayList<>();
        for (Method m : PlatformDescriptors.class.getMethods()) {
            Method own = SharedFakeProvider.class.getMethod(m.getName(), m.getParameterTypes());
            if (own.getDeclaringClass() != SharedFakeProvider.class) {
                inherited.add(m.getName());
            }
        }
        assertEquals(List.of(), inherited, "a method SharedFakeProvider takes from the SPI's defaults, not from the fake");
    }
}
