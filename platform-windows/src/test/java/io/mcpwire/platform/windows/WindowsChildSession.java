package io.mcpwire.platform.windows;

import com.sun.jna.Function;
import com.sun.jna.Native;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.rules.windows.WindowsPlatform;
import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.platform.windows.jna.KernelBase;
import io.mcpwire.platform.windows.jna.Ucrt;
import io.mcpwire.stdio.StdioClaim;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
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
    private static KernelBase kernelBase;

    private WindowsChildSession() {
    }

    public static void main(String[] args) throws Exception {
        report = Path.of(args[0]);
        ucrt = Native.load("ucrtbase", Ucrt.class);
        kernel32 = Native.load("kernel32", Kernel32.class);
        kernelBase = Native.load("kernelbase", KernelBase.class);
        if (args.length > 1 && args[1].equals("rollforward")) {
            rolledForward();
            return;
        }
        if (args.length > 1 && args[1].equals("blockedstderr")) {
            WindowsRaces.blockedStderr(WindowsChildSession::report);
            return;
        }
        if (args.length > 1 && args[1].equals("racingchild")) {
            WindowsRaces.racingChildren(WindowsChildSession::report, () -> startupMatch(jvmStartupHandles()));
            return;
        }
        try {
            new WindowsDescriptors().identity(200); // not open: an error, not the end of the process
            report("CLOSED FD NO ERROR");
        } catch (DescriptorException e) {
            report("CLOSED FD ERROR " + e.errorText());
        }
        List<Integer> before = openDescriptors();
        long[] startup = jvmStartupHandles();
        report("SLOTS BEFORE " + slotsMatch());
        report("STARTUP BEFORE " + startupMatch(startup));

        StdioClaim claim = StdioClaim.acquire();
        report("CLAIM " + claim.platformName() + " isolated=" + claim.isIsolated() + " stderrIsWire=" + claim.stderrIsWire());
        report("SLOTS DURING " + slotsMatch());
        report("STARTUP DURING " + startupMatch(startup));
        // What a Java child started with inheritIO() gets: the JVM's start-up handles, which now name the diversions.
        Process inheriting = new ProcessBuilder("cmd.exe", "/c", "echo inherited child stdout").inheritIO().start();
        report("INHERIT CHILD EXIT " + inheriting.waitFor());
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
        System.out.println("after the session"); // through a stream on the restored fd 1, not a closed handle
        System.out.flush();
        report("SLOTS AFTER " + slotsMatch());
        report("STARTUP AFTER " + startupMatch(startup));
        report("TABLE " + (before.equals(openDescriptors()) ? "UNCHANGED" : "CHANGED " + before + " -> " + openDescriptors()));
        report("DONE");
    }

    /**
     * Claims stdout through the real provider, wrapped so that the diverting {@code _dup2} is
     * reported failed after it took effect and the rollback fails: the claim rolls forward. A
     * native child started then must write to the diversion (stderr), not to the handle that
     * {@code _dup2} closed.
     */
    private static void rolledForward() throws Exception {
        PlatformDescriptors real = new WindowsDescriptors();
        int[] ontoStdout = {0};
        PlatformDescriptors faulty = (PlatformDescriptors) Proxy.newProxyInstance(WindowsChildSession.class.getClassLoader(),
                new Class<?>[] {PlatformDescriptors.class}, (proxy, method, a) -> {
                    if (method.getName().equals("duplicateOnto") && (int) a[1] == 1) {
                        int n = ++ontoStdout[0];
                        if (n == 1) {
                            real.duplicateOnto((int) a[0], 1);
                            throw new DescriptorException("_dup2(" + a[0] + ", 1)", 1, 0, "scripted: reported failed after it took effect");
                        }
                        if (n == 2) {
                            throw new DescriptorException("_dup2(" + a[0] + ", 1)", 1, 0, "scripted: the rollback fails");
                        }
                    }
                    try {
                        return method.invoke(real, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        StdioClaim claim = StdioClaim.builder().platform(faulty).input(false).acquire();
        report("STATE " + claim.outputState());
        report("SLOTS DURING " + slotsMatch());
        // The C runtime's system(): its child inherits the Win32 standard slots, as native children do.
        int exit = Function.getFunction("ucrtbase", "system").invokeInt(new Object[] {"echo inherited child"});
        report("NATIVE CHILD EXIT " + exit);
        claim.output().write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n".getBytes(StandardCharsets.UTF_8));
        claim.close();
        report("RELEASED " + claim.isReleased());
        report("DONE");
    }

    /**
     * The handle values the JVM's {@code System.in}, {@code System.out} and {@code System.err}
     * captured at start-up, from {@code FileDescriptor.in/out/err} (the test opens {@code java.io}).
     */
    static long[] jvmStartupHandles() throws ReflectiveOperationException {
        java.lang.reflect.Field handle = java.io.FileDescriptor.class.getDeclaredField("handle");
        handle.setAccessible(true);
        return new long[] {handle.getLong(java.io.FileDescriptor.in), handle.getLong(java.io.FileDescriptor.out),
            handle.getLong(java.io.FileDescriptor.err)};
    }

    /**
     * Whether each start-up value names the same kernel object as descriptor 0, 1 and 2 now
     * ({@code CompareObjectHandles}); one value that stdout and stderr share names either's.
     */
    static String startupMatch(long[] startup) {
        StringBuilder differ = new StringBuilder();
        boolean shared = startup[1] == startup[2];
        for (int fd = 0; fd < 3; fd++) {
            long now = QuietCrt.osHandle(ucrt, fd);
            boolean other = shared && fd > 0 && kernelBase.CompareObjectHandles(startup[fd], QuietCrt.osHandle(ucrt, 3 - fd));
            if (!kernelBase.CompareObjectHandles(startup[fd], now) && !other) {
                differ.append(" fd").append(fd).append("=0x").append(Long.toHexString(startup[fd]))
                        .append("/0x").append(Long.toHexString(now));
            }
        }
        return differ.length() == 0 ? "MATCH" : "DIFFER" + differ;
    }

    /** Whether each Win32 standard slot holds the C runtime descriptor's current handle. */
    private static String slotsMatch() {
        boolean in = kernel32.GetStdHandle(WindowsPlatform.STD_SLOTS[0]) == QuietCrt.osHandle(ucrt, 0);
        boolean out = kernel32.GetStdHandle(WindowsPlatform.STD_SLOTS[1]) == QuietCrt.osHandle(ucrt, 1);
        return in && out ? "MATCH" : "DIFFER in=" + in + " out=" + out;
    }

    private static List<Integer> openDescriptors() {
        List<Integer> open = new ArrayList<>();
        for (int fd = 0; fd < 256; fd++) {
            long h = QuietCrt.osHandle(ucrt, fd); // most are not open: suppressed, or the runtime ends the process
            if (h != -1 && h != -2) {
                open.add(fd);
            }
        }
        return open;
    }

    static synchronized void report(String line) throws IOException {
        Files.writeString(report, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
