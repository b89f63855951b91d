package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.rules.NativeMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The scripted binding's native memory: a byte array in native byte order. */
final class ScriptedMemory implements NativeMemory {
    private final byte[] bytes;

    ScriptedMemory(int size) {
        bytes = new byte[size];
    }

    @Override
    public void putInt(long offset, int value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putInt((int) offset, value);
    }

    @Override
    public short getShort(long offset) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).getShort((int) offset);
    }

    @Override
    public void write(long offset, byte[] source, int from, int n) {
        System.arraycopy(source, from, bytes, (int) offset, n);
    }

    @Override
    public void read(long offset, byte[] target, int to, int n) {
        System.arraycopy(bytes, (int) offset, target, to, n);
    }
}
