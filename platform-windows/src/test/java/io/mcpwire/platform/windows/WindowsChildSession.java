package io.mcpwire.platform.windows;

import com.sun.jna.Native;
import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.platform.windows.jna.Ucrt;
import io.mcpwire.stdio.StdioClaim;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server side of the real Windows test: a child JVM that claims its own standard streams
 * through the engine and this provider, misbehaves, serves every request until end of input, and
 * reports what it observed (C runtime table, Win32 slots) to a file.
 */
public final class WindowsChildSession {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static Path report;
    private static Ucrt ucrt;
    private static Kernel32 kernel32;

    private WindowsChildSession() {
    }

    public static void main(String[] args) throws Exception {
        report = Path.of(args[0]);
        ucrt = Native.load("ucrtbase", Ucrt.class);
        kernel32 = Native.load("kernel32", Kernel32.class);
        List<Integer> before = openDescriptors();
        report("SLOTS BEFORE " + slotsMatch());

        StdioClaim claim = StdioClaim.acquire();
        report("CLAIM " + claim.platformName() + " isolated=" + claim.isIsolated());
        report("SLOTS DURING " + slotsMatch());
        System.out.println("stray println");
        for (byte b : "unflushed-write".getBytes(StandardCharsets.UTF_8)) {
            System.out.write(b);
        }
        // The documented way to start a child on Windows: no Redirect.INHERIT for stdin/stdout.
        Process child = new ProcessBuilder("cmd.exe", "/c", "echo child stdout")
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        child.getOutputStream().close();
        report("CHILD EXIT " + child.waitFor());
        report("SYSTEM.IN " + System.in.read());

        BufferedReader in = new BufferedReader(new InputStreamReader(claim.input(), StandardCharsets.UTF_8));
        OutputStream out = claim.output();
        int served = 0;
        String line;
        while ((line = in.readLine()) != null) {
            Matcher m = ID.matcher(line);
            String id = m.find() ? m.group(1) : "null";
            out.write(("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}\n").getBytes(StandardCharsets.UTF_8));
            served++;
        }
        report("SERVED " + served);
        claim.close();
        report("RELEASED " + claim.isReleased());
        report("SLOTS AFTER " + slotsMatch());
        report("TABLE " + (before.equals(openDescriptors()) ? "UNCHANGED" : "CHANGED " + before + " -> " + openDescriptors()));
        report("DONE");
    }

    /** Whether each Win32 standard slot holds the C runtime descriptor's current handle. */
    private static String slotsMatch() {
        boolean in = kernel32.GetStdHandle(Kernel32.STD_INPUT_HANDLE) == ucrt._get_osfhandle(0);
        boolean out = kernel32.GetStdHandle(Kernel32.STD_OUTPUT_HANDLE) == ucrt._get_osfhandle(1);
        return in && out ? "MATCH" : "DIFFER in=" + in + " out=" + out;
    }

    private static List<Integer> openDescriptors() {
        List<Integer> open = new ArrayList<>();
        for (int fd = 0; fd < 256; fd++) {
            long h = ucrt._get_osfhandle(fd);
            if (h != -1 && h != -2) {
                open.add(fd);
            }
        }
        return open;
    }

    private static synchronized void report(String line) throws IOException {
        Files.writeString(report, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
