package io.mcpwire.platform.test;

import java.util.HashMap;
import java.util.Map;

/**
 * Writes the C runtime and Win32 calls that change a Windows model's state as a claim script
 * ({@link WindowsScript}), naming handles by where they came from rather than by value: the handle
 * of a descriptor, what an earlier step returned, or a start-up value. Not thread-safe: the
 * kernel's lock guards it, and each call is written under it.
 */
final class ScriptRecorder {
    /** Records nothing: the model's state by default. */
    static final ScriptRecorder OFF = new ScriptRecorder(false);

    private final boolean on;
    private final StringBuilder text = new StringBuilder();
    /** A live handle value to the step that returned it. */
    private final Map<Long, Integer> returnedBy = new HashMap<>();
    private int steps;

    ScriptRecorder(boolean on) {
        this.on = on;
    }

    boolean on() {
        return on;
    }

    /** How the script names {@code value}, as it stands before the call that uses it. */
    String handle(FakeCrt crt, long value) {
        int owner = crt.ownerOf(value);
        if (value > 0 && owner >= 0) {
            return "fd:" + owner;
        }
        Integer step = returnedBy.get(value);
        if (step != null) {
            return "r:" + step;
        }
        for (int fd = 0; fd < 3; fd++) {
            if (value != 0 && crt.jvmHandle(fd) == value) {
                return "s:" + fd;
            }
        }
        return "0";
    }

    /** One call, with its arguments as the script names them (an empty name writes nothing); a handle it returned (0 for none) is remembered. */
    void step(String call, String args, boolean faulted, long returned) {
        if (!on || call.isEmpty()) {
            return;
        }
        steps++;
        text.append(steps).append(' ').append(call).append(args.isEmpty() ? "" : " " + args)
                .append(faulted ? " fail" : "").append('\n');
        if (returned > 0) {
            returnedBy.put(returned, steps);
        }
    }

    void line(String line) {
        text.append(line).append('\n');
    }

    String text() {
        return text.toString();
    }
}
