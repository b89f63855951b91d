package io.mcpwire.platform.rules.posix;

import java.util.Locale;
import java.util.Map;

/**
 * The constants that differ between POSIX systems, chosen at run time from {@code os.name}.
 * The ones that agree everywhere (O_RDONLY, O_WRONLY, F_GETFL, O_ACCMODE, POLLIN, POLLOUT,
 * POLLNVAL, EINTR, EBADF, EPIPE) are plain constants below.
 *
 * @param os             the system's name
 * @param fDupfdCloexec  {@code F_DUPFD_CLOEXEC}
 * @param oCloexec       {@code O_CLOEXEC}
 * @param oCreat         {@code O_CREAT}
 * @param oAppend        {@code O_APPEND}
 * @param fGetpath       {@code F_GETPATH} (macOS), or -1 where the path comes from {@code /proc/self/fd}
 *                       or cannot be had
 * @param eAgain         {@code EAGAIN}
 * @param eConnReset     {@code ECONNRESET}: a socket's peer closed with data it had not read
 * @param pipeBuf        {@code PIPE_BUF}: a write of at most this many bytes to a pipe that polls
 *                       writable does not block
 * @param nfdsIsInt      whether {@code nfds_t} is an {@code unsigned int} (macOS, FreeBSD) rather
 *                       than an {@code unsigned long} (Linux)
 * @param errnoNames     errno values and their names, for messages
 */
public record PosixConstants(String os, int fDupfdCloexec, int oCloexec, int oCreat, int oAppend, int fGetpath,
                      int eAgain, int eConnReset, int pipeBuf, boolean nfdsIsInt,
                      Map<Integer, String> errnoNames) {

    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 1;
    public static final int O_ACCMODE = 3;
    public static final int F_GETFD = 1;
    public static final int FD_CLOEXEC = 1;
    public static final int F_GETFL = 3;
    public static final short POLLIN = 0x1;
    public static final short POLLOUT = 0x4;
    public static final short POLLNVAL = 0x20;
    public static final int EINTR = 4;
    public static final int EBADF = 9;
    public static final int EPIPE = 32;

    private static final Map<Integer, String> COMMON = Map.ofEntries(
            Map.entry(1, "EPERM"), Map.entry(2, "ENOENT"), Map.entry(4, "EINTR"), Map.entry(5, "EIO"),
            Map.entry(9, "EBADF"), Map.entry(12, "ENOMEM"), Map.entry(13, "EACCES"), Map.entry(14, "EFAULT"),
            Map.entry(22, "EINVAL"), Map.entry(23, "ENFILE"), Map.entry(24, "EMFILE"), Map.entry(28, "ENOSPC"),
            Map.entry(32, "EPIPE"));

    public static final PosixConstants LINUX = new PosixConstants("Linux", 1030, 0x80000, 0100, 02000, -1, 11, 104, 4096, false,
            with(Map.of(11, "EAGAIN", 104, "ECONNRESET", 16, "EBUSY")));
    public static final PosixConstants MACOS = new PosixConstants("macOS", 67, 0x1000000, 0x200, 0x8, 50, 35, 54, 512, true,
            with(Map.of(35, "EAGAIN", 54, "ECONNRESET", 16, "EBUSY")));
    public static final PosixConstants FREEBSD = new PosixConstants("FreeBSD", 17, 0x100000, 0x200, 0x8, -1, 35, 54, 512, true,
            with(Map.of(35, "EAGAIN", 54, "ECONNRESET", 16, "EBUSY")));

    private static Map<Integer, String> with(Map<Integer, String> own) {
        java.util.HashMap<Integer, String> all = new java.util.HashMap<>(COMMON);
        all.putAll(own);
        return Map.copyOf(all);
    }

    /** The table for {@code osName}, or null when it is not a supported POSIX system. */
    public static PosixConstants forOs(String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            return LINUX;
        }
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return MACOS;
        }
        if (os.startsWith("freebsd")) {
            return FREEBSD;
        }
        return null;
    }

    /** The errno's name, for example {@code EBADF}, or {@code errno N}. */
    public String errnoName(int errno) {
        return errnoNames.getOrDefault(errno, "errno " + errno);
    }
}
