package io.mcpwire.platform.test.kit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The kit's platform conditions reach every subclass: JUnit's own condition annotations are not
 * inherited, so one on an abstract suite would leave its subclasses running on every OS.
 */
class PlatformConditionsTest {

    /** A provider's suite as a user writes it: no annotation of its own. */
    abstract static class UnannotatedScenarios extends ClaimScenarios {
    }

    @Test
    void aSubclassOfTheClaimScenariosKeepsTheirPosixCondition() {
        EnabledOnOs found = AnnotationSupport.findAnnotation(UnannotatedScenarios.class, EnabledOnOs.class)
                .orElseThrow(() -> new AssertionError("JUnit finds no OS condition on a subclass of ClaimScenarios"));
        assertArrayEquals(new OS[] {OS.LINUX, OS.MAC, OS.FREEBSD}, found.value());
    }

    @Test
    void theKitsConditionsAreInherited() {
        for (Class<? extends Annotation> condition : List.of(EnabledOnPosix.class, EnabledOnWindows.class)) {
            assertTrue(condition.isAnnotationPresent(java.lang.annotation.Inherited.class), condition + " is @Inherited");
            assertTrue(condition.isAnnotationPresent(EnabledOnOs.class), condition + " carries JUnit's condition");
        }
    }

    @Test
    void noAbstractSuiteOfTheKitCarriesOneOfJunitsConditionsDirectly() throws Exception {
        List<String> traps = new ArrayList<>();
        for (Class<?> type : kitClasses()) {
            if (!Modifier.isAbstract(type.getModifiers()) || type.isInterface()) {
                continue;
            }
            for (Annotation a : type.getDeclaredAnnotations()) {
                if (a.annotationType().getPackageName().equals("org.junit.jupiter.api.condition")) {
                    traps.add(type.getName() + " carries @" + a.annotationType().getSimpleName());
                }
            }
        }
        assertEquals(List.of(), traps, "use @EnabledOnPosix or @EnabledOnWindows, which subclasses inherit");
    }

    /** Every class compiled into the kit's own package. */
    private static List<Class<?>> kitClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(ClaimScenarios.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve(ClaimScenarios.class.getPackageName().replace('.', '/'));
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String file = f.getFileName().toString();
                if (file.endsWith(".class")) {
                    out.add(Class.forName(ClaimScenarios.class.getPackageName() + "." + file.replace(".class", "")));
                }
            }
        }
        assertTrue(out.contains(ClaimScenarios.class), "found the kit's classes in " + dir);
        return out;
    }
}
