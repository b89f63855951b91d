package io.mcpwire.platform.windows.jna;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;

/** {@code kernel32}'s {@code CreatePipe}, which the provider never calls and its tests do. */
public interface Pipes extends Library {
    /** {@code BOOL CreatePipe(PHANDLE read, PHANDLE write, LPSECURITY_ATTRIBUTES attributes, DWORD size)}. */
    boolean CreatePipe(LongByReference read, LongByReference write, Pointer attributes, int size);
}
