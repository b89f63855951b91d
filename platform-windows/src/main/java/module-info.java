/** C runtime descriptors and Win32 standard handles through JNA. */
module io.mcpwire.platform.windows {
    requires io.mcpwire.api;
    requires com.sun.jna;

    provides io.mcpwire.platform.PlatformDescriptors with io.mcpwire.platform.windows.WindowsDescriptors;
}
