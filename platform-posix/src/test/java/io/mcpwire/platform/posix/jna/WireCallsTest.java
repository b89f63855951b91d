package io.mcpwire.platform.posix.jna;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The wire's calls move from JNA Functions to direct-mapped methods once busy, and still read,
 * write and poll a pipe as before, with errno kept.
 */
@EnabledOnOs(value = {OS.LINUX, OS.MAC}, disabledReason = "the C library of a POSIX system")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WireCallsTest {
    private static final short POLLIN = 1;
    private static final int EBADF = 9;

    @Test
    void aBusyWireMovesToDirectCallsThatReadWriteAndPollAsBeforeAndKeepErrno() {
        int[] fds = new int[2];
        assertEquals(0, LibC.pipe(fds));
        Memory buffer = new Memory(16);
        try {
            int calls = 0;
            while (!WireCalls.direct()) { // past the busy mark (other tests' calls count too), until the binding thread has bound them
                buffer.setByte(0, (byte) calls);
                assertEquals(1, WireCalls.write(fds[1], buffer, 1));
                buffer.setByte(0, (byte) -1);
                assertEquals(1, WireCalls.read(fds[0], buffer, 1));
                assertEquals((byte) calls, buffer.getByte(0), "a byte through the Functions");
                calls += 2;
            }

            buffer.write(0, new byte[] {'a', 'b'}, 0, 2);
            assertEquals(2, WireCalls.write(fds[1], buffer, 2));
            Memory pollfd = new Memory(8); // int fd; short events; short revents
            pollfd.setInt(0, fds[0]);
            pollfd.setShort(4, POLLIN);
            pollfd.setShort(6, (short) 0);
            assertEquals(1, WireCalls.poll(pollfd, 1, 1_000, !Platform.isLinux()), "the read end is ready");
            assertTrue((pollfd.getShort(6) & POLLIN) != 0, "POLLIN in revents");
            Memory in = new Memory(16);
            assertEquals(2, WireCalls.read(fds[0], in, 16));
            assertEquals("ab", new String(in.getByteArray(0, 2), java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(0, WireCalls.poll(pollfd, 1, 0, !Platform.isLinux()), "nothing left to read");

            assertEquals(0, LibC.close(fds[1]));
            assertEquals(0, WireCalls.read(fds[0], in, 16), "end of input once the write end is closed");
            assertEquals(0, LibC.close(fds[0]));
            assertEquals(-1, WireCalls.read(fds[0], in, 16));
            assertEquals(EBADF, Native.getLastError(), "errno of a direct call, kept as a Function's is");
        } finally {
            LibC.close(fds[0]);
            LibC.close(fds[1]);
        }
    }
}
