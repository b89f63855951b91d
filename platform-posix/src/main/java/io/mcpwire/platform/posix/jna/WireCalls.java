package io.mcpwire.platform.posix.jna;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The wire's calls, {@code read}, {@code write} and {@code poll}: through {@link LibC}'s
 * {@code Function}s at first, direct-mapped ({@code Native.register}) once the wire is busy. A
 * direct-mapped call costs about 1 µs less (no boxing, no per-call conversion of the arguments and
 * preparation of the call), a few µs of every round trip; but binding the first direct-mapped
 * method costs JNA some 40 ms (its libffi type layouts, see {@link LibC}), which no server should
 * pay at start. So after {@link #BUSY_CALLS} calls a daemon thread of its own
 * ({@code mcpwire-jna-bind}) binds them, and the calls move over once it has; a binding that fails
 * is logged at DEBUG and the {@code Function}s stay. Thread-safe.
 */
public final class WireCalls {
    /** How many wire calls a process makes before the direct-mapped ones are bound. */
    static final int BUSY_CALLS = 1_000;
    private static final Logger LOG = System.getLogger(WireCalls.class.getName());
    /** Counted without synchronization: a count that loses some calls to a race binds a little later, no harm. */
    private static int calls;
    private static final AtomicBoolean binding = new AtomicBoolean();
    /** Set once every direct-mapped call is bound; read on every call. */
    private static volatile boolean bound;

    private WireCalls() {
    }

    /** The direct-mapped calls; bound when the class initializes, on the binding thread. */
    private static final class Direct {
        static {
            Native.register(Direct.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        static native long read(int fd, Pointer buf, long count);

        static native long write(int fd, Pointer buf, long count);
    }

    /** {@code poll} where {@code nfds_t} is {@code unsigned long} (Linux). */
    private static final class PollLong {
        static {
            Native.register(PollLong.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        static native int poll(Pointer fds, long nfds, int timeoutMillis);
    }

    /** {@code poll} where {@code nfds_t} is {@code unsigned int} (macOS, FreeBSD). */
    private static final class PollInt {
        static {
            Native.register(PollInt.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        static native int poll(Pointer fds, int nfds, int timeoutMillis);
    }

    /** Binds the direct-mapped calls on the binding thread: both shapes of {@code poll}, each call naming its own. */
    private enum Binding implements Runnable {
        RUN;

        @Override
        public void run() {
            try {
                ClassLoader loader = WireCalls.class.getClassLoader();
                for (Class<?> c : new Class<?>[] {Direct.class, PollLong.class, PollInt.class}) {
                    Class.forName(c.getName(), true, loader);
                }
                bound = true;
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                LOG.log(Level.DEBUG, "the wire calls stay JNA Functions: binding them direct failed ({0})", e.toString());
            }
        }
    }

    /** Counts a call through the {@code Function}s, and starts the binding at the busy mark. */
    private static void counted() {
        if (++calls >= BUSY_CALLS && binding.compareAndSet(false, true)) {
            Thread t = new Thread(Binding.RUN, "mcpwire-jna-bind");
            t.setDaemon(true);
            try {
                t.start();
            } catch (RuntimeException | OutOfMemoryError noThread) {
                LOG.log(Level.DEBUG, "the wire calls stay JNA Functions: no thread to bind them ({0})", noThread.toString());
            }
        }
    }

    /** {@code ssize_t read(int fd, void *buf, size_t count)}. */
    public static long read(int fd, Pointer buf, long count) {
        if (bound) {
            return Direct.read(fd, buf, count);
        }
        counted();
        return LibC.read(fd, buf, count);
    }

    /** {@code ssize_t write(int fd, const void *buf, size_t count)}. */
    public static long write(int fd, Pointer buf, long count) {
        if (bound) {
            return Direct.write(fd, buf, count);
        }
        counted();
        return LibC.write(fd, buf, count);
    }

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)}, {@code nfds_t} an {@code unsigned int} or an {@code unsigned long}. */
    public static int poll(Pointer fds, int nfds, int timeoutMillis, boolean nfdsIsInt) {
        if (bound) {
            return nfdsIsInt ? PollInt.poll(fds, nfds, timeoutMillis) : PollLong.poll(fds, nfds, timeoutMillis);
        }
        counted();
        return nfdsIsInt ? LibC.poll(fds, nfds, timeoutMillis) : LibC.poll(fds, (long) nfds, timeoutMillis);
    }

    /** Whether the wire calls have moved to the direct-mapped ones. */
    public static boolean direct() {
        return bound;
    }
}
