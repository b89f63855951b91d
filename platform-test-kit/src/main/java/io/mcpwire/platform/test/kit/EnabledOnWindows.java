package io.mcpwire.platform.test.kit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Runs the annotated suite, and every subclass of it, only on Windows. Unlike {@link EnabledOnOs}
 * it is {@link Inherited}, so a subclass of an abstract suite carrying it keeps the condition.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@EnabledOnOs(value = OS.WINDOWS, disabledReason = "the C runtime's descriptors and the Win32 handles exist only on Windows")
public @interface EnabledOnWindows {
}
