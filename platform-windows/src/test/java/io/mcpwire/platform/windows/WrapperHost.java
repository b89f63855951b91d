package io.mcpwire.platform.windows;

import com.sun.jna.Native;
import io.mcpwire.platform.windows.jna.Kernel32;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A host as Windows hosts start servers through a {@code .cmd} launcher: {@code cmd.exe /c} the
 * server. It hands the server's stdin to a helper process (the write end made inheritable, so that
 * end of input never comes), sends one request, reads the answer, writes the pids of the wrapper
 * and the helper to a file, and dies at once.
 */
public final class WrapperHost {
    private WrapperHost() {
    }

    /** Arguments: the file for the pids, then the server's command. */
    public static void main(String[] args) throws Exception {
        Path pids = Path.of(args[0]);
        List<String> command = new ArrayList<>(List.of("cmd.exe", "/d", "/s", "/c"));
        command.add(String.join(" ", List.of(args).subList(1, args.length)));
        Process wrapper = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        OutputStream stdin = wrapper.getOutputStream();
        Kernel32 kernel32 = Native.load("kernel32", Kernel32.class);
        kernel32.SetHandleInformation(handleOf(stdin), Kernel32.HANDLE_FLAG_INHERIT, Kernel32.HANDLE_FLAG_INHERIT);
        Process helper = new ProcessBuilder("cmd.exe", "/c", "ping -n 120 127.0.0.1 > NUL").start(); // inherits it
        stdin.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        String answer = new BufferedReader(new InputStreamReader(wrapper.getInputStream(), StandardCharsets.UTF_8)).readLine();
        Files.writeString(pids, wrapper.pid() + " " + helper.pid() + " " + answer, StandardCharsets.UTF_8);
        Runtime.getRuntime().halt(0); // the host dies; the helper keeps the server's stdin open
    }

    /** The OS handle of a child's stdin stream ({@code java.io} is opened to this module by the test). */
    private static long handleOf(OutputStream stream) throws ReflectiveOperationException, java.io.IOException {
        java.lang.reflect.Field out = FilterOutputStream.class.getDeclaredField("out");
        out.setAccessible(true);
        FileDescriptor fd = ((FileOutputStream) out.get(stream)).getFD();
        java.lang.reflect.Field handle = FileDescriptor.class.getDeclaredField("handle");
        handle.setAccessible(true);
        return handle.getLong(fd);
    }
}
