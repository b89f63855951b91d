package io.mcpwire.platform.windows.jna;

import com.sun.jna.Library;

/** {@code kernelbase.dll}: what only it exports. */
public interface KernelBase extends Library {
    /** {@code BOOL CompareObjectHandles(HANDLE, HANDLE)} (Windows 10 1607 and newer). */
    boolean CompareObjectHandles(long first, long second);
}
