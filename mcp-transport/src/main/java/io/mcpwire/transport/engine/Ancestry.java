package io.mcpwire.transport.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The processes a session ends with, found from this process's ancestry at the watch's start: the
 * parent, and, while the parent is a wrapper that waits for this process and passes the host's
 * stdio through (a shell running a command or a script: {@code sh -c}, {@code bash run.sh};
 * {@code cmd /c}; {@code powershell -Command}), the ancestors up to the first that is not such a
 * wrapper, taken for the host, and no further: the host's own ancestors (a terminal, a login
 * session) are not watched.
 */
final class Ancestry {
    /** The most wrappers passed through: a deeper chain is not a host's launch. */
    static final int MAX_WRAPPERS = 8;
    private static final List<String> SHELLS = List.of("sh", "bash", "dash", "zsh", "ksh", "ash", "busybox");
    private static final List<String> POWERSHELLS = List.of("powershell", "pwsh");

    private Ancestry() {
    }

    /**
     * The parent alone ({@code throughWrappers} false), or the parent and the wrappers above it up
     * to the host, none of them in {@code passedOver}; empty when there is no parent worth
     * watching: none, init (pid 1) after a launcher that exited at once re-parented this process,
     * or one already passed over.
     */
    static List<ProcessHandle> watched(boolean throughWrappers, Set<Long> passedOver) {
        List<ProcessHandle> chain = new ArrayList<>();
        Optional<ProcessHandle> next = ProcessHandle.current().parent();
        while (next.isPresent() && next.get().pid() != 1 && !passedOver.contains(next.get().pid())) {
            ProcessHandle p = next.get();
            chain.add(p);
            if (!throughWrappers || chain.size() > MAX_WRAPPERS || !isWrapper(commandLine(p))) {
                break;
            }
            next = p.parent();
        }
        return chain;
    }

    /**
     * Whether a process of this command line is a shell or command interpreter running a command
     * or a script for its parent: a POSIX shell with {@code -c} or a script operand, {@code cmd}
     * with {@code /c}, PowerShell with {@code -Command}, {@code -File} or {@code -EncodedCommand}. An
     * interactive shell (no command, no script) is not: it is a person's terminal, the host. When
     * only the program is known (Windows, where the JDK reads no arguments of another process),
     * {@code cmd} and PowerShell are taken for wrappers: as the parent of a server they almost
     * always are. A process whose command line cannot be read is not: it is taken for the host.
     */
    static boolean isWrapper(List<String> line) {
        if (line.isEmpty() || line.get(0).isEmpty()) {
            return false;
        }
        String program = line.get(0).replace('\\', '/');
        String name = program.substring(program.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT).replaceFirst("\\.exe$", "");
        List<String> args = line.subList(1, line.size());
        if (SHELLS.contains(name)) {
            return args.stream().anyMatch(a -> a.startsWith("-") && !a.startsWith("--") && a.contains("c"))
                    || args.stream().anyMatch(a -> !a.startsWith("-") && !a.startsWith("+")); // a script
        }
        boolean argumentsUnknown = args.isEmpty();
        if (name.equals("cmd")) {
            return argumentsUnknown || args.stream().anyMatch(a -> a.equalsIgnoreCase("/c"));
        }
        if (POWERSHELLS.contains(name)) {
            return argumentsUnknown || args.stream().map(a -> a.toLowerCase(Locale.ROOT))
                    .anyMatch(a -> List.of("-command", "-c", "-file", "-f", "-encodedcommand", "-e", "-ec").contains(a));
        }
        return false;
    }

    /**
     * {@code p}'s command and arguments: on Linux from {@code /proc/PID/cmdline}, whole (the JDK's
     * {@code ProcessHandle.Info} gives none for a command line longer than a page, as a JVM's class
     * path often makes its wrapper's); elsewhere as the JDK reads them. Empty when unreadable.
     */
    static List<String> commandLine(ProcessHandle p) {
        Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
        try {
            byte[] raw = Files.readAllBytes(cmdline);
            if (raw.length > 0) {
                return List.of(new String(raw, StandardCharsets.UTF_8).split("\0"));
            }
        } catch (IOException | RuntimeException notLinux) {
            // read as the JDK does
        }
        List<String> line = new ArrayList<>();
        p.info().command().ifPresent(line::add);
        p.info().arguments().ifPresent(a -> line.addAll(List.of(a)));
        return line;
    }

    /**
     * Whether {@code p} still runs: on Linux, a process that exited but that its parent has not
     * reaped yet (a zombie, which the JDK's {@code isAlive} counts as alive) has ended.
     */
    static boolean alive(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
        try {
            String s = Files.readString(stat, StandardCharsets.US_ASCII);
            int end = s.lastIndexOf(')');
            char state = end >= 0 && end + 2 < s.length() ? s.charAt(end + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException notLinux) {
            return true; // no /proc: the JDK's answer stands
        }
    }
}
