package io.mcpwire.platform.test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A claim script: the C runtime and Win32 calls that changed a fake Windows process's state, in
 * order, with the state at named phases, so that the same calls can be replayed on a real C
 * runtime (Wine's, by {@code interop/wine}) and the two compared.
 *
 * <p>Each line is {@code K CALL ARGS [fail]} or {@code phase NAME}. Calls: {@code _dup FD},
 * {@code _dup2 SRC DST}, {@code _open_nul r|w}, {@code _close FD}, {@code _open_osfhandle H},
 * {@code DuplicateHandle H INHERIT}, {@code CloseHandle H}, {@code SetStdHandle SLOT H},
 * {@code SetHandleInformation H INHERIT}, {@code SetHandleProtect H PROTECT}, {@code CancelIoEx H},
 * {@code OpenThread} (a handle on the calling thread, which takes a value of the same table), {@code CreateJobObjectW} (the
 * children's job, likewise). A handle {@code H} is {@code fd:N}
 * (descriptor N's handle at that moment), {@code r:K} (what step K returned), {@code s:N} (the
 * start-up value of descriptor N, which the JVM holds) or {@code 0}. {@code fail} marks a call the
 * model failed on purpose (a scripted fault): it is not made, but for {@code _close}, which frees
 * its descriptor even when it fails.
 *
 * <p>A state names objects, not values: {@code fd0=O fd1=O fd2=O slot0=O slot1=O slot2=O start0=O
 * start1=O start2=O child=O}, each {@code O} one of {@code stdin-wire}, {@code stdout-wire},
 * {@code stderr}, {@code nul}, {@code none}, {@code closed}, {@code other}; {@code child} is what a
 * Java child started with {@code inheritIO()} gets as its stdout, the start-up value of
 * {@code System.out}.
 */
public final class WindowsScript {
    private final FakeProcess process;
    private final ScriptRecorder recorder;
    private final List<String> states = new ArrayList<>();

    private WindowsScript(FakeProcess process, ScriptRecorder recorder) {
        this.process = process;
        this.recorder = recorder;
    }

    /**
     * Starts writing the calls made on {@code process}'s Windows model from now on.
     *
     * @param header a comment for the script's first line
     * @throws IllegalStateException when the process does not model Windows
     */
    public static WindowsScript record(FakeProcess process, String header) {
        ScriptRecorder r = new ScriptRecorder(true);
        r.line("# " + header);
        process.kernel.locked(() -> {
            process.kernel.crt().recorder = r;
            return null;
        });
        return new WindowsScript(process, r);
    }

    /** Marks a phase: the script says so, and the model's state now is kept as {@code NAME: STATE}. */
    public void phase(String name) {
        process.kernel.locked(() -> {
            recorder.line("phase " + name);
            states.add(name + ": " + state(process.kernel));
            return null;
        });
    }

    /** The script so far. */
    public String text() {
        return process.kernel.locked(recorder::text);
    }

    /** The model's state at each phase so far, as {@code NAME: STATE}. */
    public List<String> states() {
        return List.copyOf(states);
    }

    /**
     * Replays {@code script} on {@code fresh}, a fake Windows process of the same layout that no
     * claim has touched: each call made on its model as the script says, faulted ones skipped as
     * the replayer skips them.
     *
     * @return the state at each phase, as {@code NAME: STATE}
     * @throws IllegalArgumentException on a line it cannot read
     */
    public static List<String> replay(String script, FakeProcess fresh) {
        FakeWin32 w = fresh.win32();
        FakeKernel kernel = fresh.kernel;
        Map<Integer, Long> results = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (String line : script.split("\n")) {
            String[] a = line.trim().split(" +");
            if (a[0].isEmpty() || a[0].startsWith("#")) {
                continue;
            }
            if (a[0].equals("phase")) {
                out.add(a[1] + ": " + kernel.locked(() -> state(kernel)));
                continue;
            }
            int k = Integer.parseInt(a[0]);
            boolean faulted = a[a.length - 1].equals("fail");
            if (faulted) {
                if (a[1].equals("_close")) {
                    kernel.locked(() -> {
                        kernel.crt().close(Integer.parseInt(a[2]));
                        return null;
                    });
                }
                continue;
            }
            long result = switch (a[1]) {
                case "_dup" -> w.dup(Integer.parseInt(a[2]));
                case "_dup2" -> w.dup2(Integer.parseInt(a[2]), Integer.parseInt(a[3]));
                case "_pipe" -> w.pipe(new int[2], Integer.parseInt(a[2]), 0x8000 | 0x80);
                case "_close" -> w.close(Integer.parseInt(a[2]));
                case "_open_nul" -> w.open("NUL", (a[2].equals("w") ? 1 : 0) | 0x8000 | 0x80);
                case "_open_osfhandle" -> w.openOsfHandle(handle(kernel, results, a[2]), 0x8000);
                case "DuplicateHandle" -> w.duplicateHandle(handle(kernel, results, a[2]), a[3].equals("1"));
                case "CloseHandle" -> w.closeHandle(handle(kernel, results, a[2])) ? 0 : -1;
                case "SetStdHandle" -> w.setStdHandle(-10 - Integer.parseInt(a[2]), handle(kernel, results, a[3])) ? 0 : -1;
                case "SetHandleInformation" -> w.setInheritable(handle(kernel, results, a[2]), a[3].equals("1")) ? 0 : -1;
                case "SetHandleProtect" -> w.setProtectFromClose(handle(kernel, results, a[2]), a[3].equals("1")) ? 0 : -1;
                case "OpenThread" -> w.openCurrentThread();
                case "CreateJobObjectW" -> w.createJobObject();
                case "CancelIoEx" -> {
                    w.cancelIo(handle(kernel, results, a[2]));
                    yield 0;
                }
                default -> throw new IllegalArgumentException("unknown call in a claim script: " + line);
            };
            results.put(k, result);
        }
        return out;
    }

    /** The model's state as a script names it: descriptors, slots, start-up values and a Java child's stdout. */
    private static String state(FakeKernel kernel) {
        FakeCrt crt = kernel.crt();
        StringBuilder out = new StringBuilder();
        for (int fd = 0; fd < 3; fd++) {
            long h = crt.osHandle(fd);
            out.append(fd == 0 ? "" : " ").append("fd").append(fd).append('=')
                    .append(h == -1 ? "closed" : h == FakeCrt.NO_HANDLE ? "none" : object(crt.handles.fileOf(h), kernel));
        }
        for (int fd = 0; fd < 3; fd++) {
            out.append(" slot").append(fd).append('=').append(value(crt.slot(fd), kernel));
        }
        for (int fd = 0; fd < 3; fd++) {
            out.append(" start").append(fd).append('=').append(value(crt.jvmHandle(fd), kernel));
        }
        return out.append(" child=").append(value(crt.jvmHandle(1), kernel)).toString();
    }

    private static String value(long value, FakeKernel kernel) {
        if (value == 0) {
            return "none";
        }
        FakeFile f = kernel.crt().handles.fileOf(value);
        return f == null ? "closed" : object(f, kernel);
    }

    private static String object(FakeFile file, FakeKernel kernel) {
        if (file == kernel.wireIn) {
            return "stdin-wire";
        } else if (file == kernel.wireOut) {
            return "stdout-wire";
        } else if (file.role == FakeFile.Role.SINK && file.sink == kernel.stderr) {
            return "stderr";
        }
        return file.role == FakeFile.Role.NULL_DEVICE ? "nul" : "other";
    }

    private static long handle(FakeKernel kernel, Map<Integer, Long> results, String name) {
        return kernel.locked(() -> {
            FakeCrt crt = kernel.crt();
            if (name.startsWith("fd:")) {
                return crt.osHandle(Integer.parseInt(name.substring(3)));
            } else if (name.startsWith("r:")) {
                return results.getOrDefault(Integer.parseInt(name.substring(2)), 0L);
            } else if (name.startsWith("s:")) {
                return crt.jvmHandle(Integer.parseInt(name.substring(2)));
            }
            return 0L;
        });
    }
}
