package io.mcpwire.jsonrpc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Strict UTF-8 validation (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. */
final class Utf8 {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Utf8() {
    }

    /** Returns the offset of the first byte of the first invalid sequence, or -1 if all is valid. */
    static int firstInvalid(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            if (i + 8 <= end && ((long) LONGS.get(b, i) & 0x8080808080808080L) == 0) {
                i += 8; // eight ASCII bytes at once
                continue;
            }
            int c = b[i];
            if (c >= 0) { // ASCII: the common case
                i++;
                continue;
            }
            c &= 0xFF;
            int need;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                min = 0x10000;
            } else {
                return i - off;
            }
            if (i + need >= end) { // truncated sequence
                return i - off;
            }
            int cp = c & (0x3F >> need);
            for (int k = 1; k <= need; k++) {
                int cc = b[i + k] & 0xFF;
                if ((cc & 0xC0) != 0x80) {
                    return i - off;
                }
                cp = (cp << 6) | (cc & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return i - off;
            }
            i += need + 1;
        }
        return -1;
    }
}
