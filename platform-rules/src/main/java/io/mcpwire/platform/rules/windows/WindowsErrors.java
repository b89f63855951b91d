package io.mcpwire.platform.rules.windows;

import java.util.Map;

/** Names for the C runtime's errno values and the Win32 error codes the provider meets. */
public final class WindowsErrors {
    /** A code the provider tells apart. */
    public static final int EBADF = 9;
    /** A code the provider tells apart. */
    public static final int ERROR_BROKEN_PIPE = 109;
    /** A code the provider tells apart. */
    public static final int ERROR_NO_DATA = 232;
    /** A code the provider tells apart. */
    public static final int ERROR_OPERATION_ABORTED = 995;
    /** A code the provider tells apart. */
    public static final int ERROR_HANDLE_EOF = 38;
    /** A code the provider tells apart: a named pipe whose other end has disconnected. */
    public static final int ERROR_PIPE_NOT_CONNECTED = 233;

    private static final Map<Integer, String> ERRNO = Map.of(
            9, "EBADF (Bad file descriptor)", 5, "EIO (Input/output error)", 24, "EMFILE (Too many open files)",
            22, "EINVAL (Invalid argument)", 13, "EACCES (Permission denied)",
            2, "ENOENT (No such file or directory)", 12, "ENOMEM (Not enough memory)");

    private static final Map<Integer, String> WIN32 = Map.ofEntries(
            Map.entry(5, "ERROR_ACCESS_DENIED"), Map.entry(6, "ERROR_INVALID_HANDLE"),
            Map.entry(8, "ERROR_NOT_ENOUGH_MEMORY"), Map.entry(87, "ERROR_INVALID_PARAMETER"),
            Map.entry(109, "ERROR_BROKEN_PIPE (the other end has closed)"),
            Map.entry(232, "ERROR_NO_DATA (the pipe is being closed: the reader has gone)"),
            Map.entry(233, "ERROR_PIPE_NOT_CONNECTED (the other end has disconnected)"),
            Map.entry(995, "ERROR_OPERATION_ABORTED"), Map.entry(4, "ERROR_TOO_MANY_OPEN_FILES"),
            Map.entry(38, "ERROR_HANDLE_EOF"));

    private WindowsErrors() {
    }

    /**
     * Whether a failed {@code ReadFile} means that no more input will come: the writer closed an
     * anonymous pipe ({@code ERROR_BROKEN_PIPE}), a named pipe's peer disconnected
     * ({@code ERROR_PIPE_NOT_CONNECTED}: Node's stdio pipes are named pipes), or a file ended.
     */
    public static boolean isEndOfInput(int code) {
        return code == ERROR_BROKEN_PIPE || code == ERROR_PIPE_NOT_CONNECTED || code == ERROR_HANDLE_EOF;
    }

    /** A C runtime errno with its name, for messages. */
    public static String errno(int code) {
        return "errno " + code + " " + ERRNO.getOrDefault(code, "(unknown)");
    }

    /** A {@code GetLastError()} code with its name, for messages. */
    public static String win32(int code) {
        return "GetLastError " + code + " " + WIN32.getOrDefault(code, "(see the Win32 system error codes)");
    }
}
