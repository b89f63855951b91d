/**
 * The platform provider for Windows: the Universal C Runtime's descriptors and the Win32 standard
 * handles, via JNA. Its JNA bindings live in one package, opened to JNA alone.
 */
module io.mcpwire.platform.windows {
    requires io.mcpwire.platform.rules;
    requires com.sun.jna;

    opens io.mcpwire.platform.windows.jna to com.sun.jna;

    provides io.mcpwire.platform.PlatformDescriptors with io.mcpwire.platform.windows.WindowsDescriptors;
}
