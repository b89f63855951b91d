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
 * Runs the annotated suite, and every subclass of it, only on POSIX systems (Linux, macOS,
 * FreeBSD). Unlike {@link EnabledOnOs} it is {@link Inherited}: a provider's test that extends an
 * abstract suite carrying it is skipped elsewhere without saying so again.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@EnabledOnOs(value = {OS.LINUX, OS.MAC, OS.FREEBSD}, disabledReason = "a POSIX system's descriptors, shell or /dev/fd")
public @interface EnabledOnPosix {
}
