package io.mcpwire.platform.test.kit;

import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.test.harness.BlockedThreads;
import io.mcpwire.stdio.ClaimState;
import io.mcpwire.stdio.StdioClaim;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The server side of {@link ClaimScenarios}: a child JVM that claims its real fd 0 and fd 1
 * through the engine and the provider named by {@code -Dmcpwire.platform}, misbehaves the way
 * tools do, and writes what it observes to a report file, one {@code KEY value} line each (its
 * stdout and stderr are part of what the test judges).
 *
 * <p>Arguments: {@code MODE REPORT-FILE BLOCKED-CLASS BLOCKED-METHOD}, the last two naming the
 * frame a read blocked in the provider's wait shows on top.
 */
public final class ScenarioChild {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static Path report;
    private static PlatformDescriptors provider;
    private static FileIdentity wire0;
    private static FileIdentity wire1;

    private ScenarioChild() {
    }

    /** Runs one scenario. */
    public static void main(String[] args) throws Exception {
        report = Path.of(args[1]);
        provider = named(System.getProperty("mcpwire.platform"));
        // What the OS says each standard descriptor is (F_GETPATH on macOS), so a failure explains itself.
        for (int fd = 0; fd < 3; fd++) {
            report("FD " + fd + " IS " + provider.describe(fd));
        }
        if (args[0].equals("absent")) {
            absent();
            return;
        }
        wire0 = provider.identity(0);
        wire1 = provider.identity(1);
        report("WIRE KINDS " + wire0.kind() + " " + wire1.kind());
        warmUp();
        Map<Integer, String> before = table();
        int threadsBefore = Thread.activeCount();
        switch (args[0]) {
            case "session" -> session();
            case "idle" -> idle(args[2], args[3]);
            case "cycles" -> cycles();
            default -> throw new IllegalArgumentException(args[0]);
        }
        Map<Integer, String> after = table();
        report("TABLE " + (before.equals(after) ? "UNCHANGED" : "CHANGED before=" + before + " after=" + after));
        report("WIRE " + (provider.identity(0).sameFileAs(wire0) && provider.identity(1).sameFileAs(wire1) ? "RESTORED" : "LOST"));
        report("THREADS " + (Thread.activeCount() <= threadsBefore ? "NONE LEFT" : (Thread.activeCount() - threadsBefore) + " LEFT"));
        report("DONE");
    }

    private static PlatformDescriptors named(String name) {
        return ServiceLoader.load(PlatformDescriptors.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no provider named " + name));
    }

    /** Loads what the session loads, so that lazily opened files do not count as leaks. */
    private static void warmUp() throws Exception {
        provider.identity(2);
        StdioClaim.class.getName();
        // No pipes: the JDK closes a child's pipes on its reaper thread after waitFor returns, so a
        // table taken at once could still list them. With files and DISCARD it closes them before.
        new ProcessBuilder("true").redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start().waitFor();
    }

    /**
     * Started with fd 0 or fd 1 closed, where the JVM put its own files: claims, loads classes
     * (which read the module image through its descriptor), tries the absent stream, releases.
     */
    private static void absent() throws Exception {
        StdioClaim claim = StdioClaim.acquire();
        report("STATES " + claim.inputState() + " " + claim.outputState());
        for (String c : new String[] {"java.time.chrono.HijrahDate", "java.util.concurrent.Phaser", "java.text.Collator"}) {
            Class.forName(c);
        }
        report("LOADED CLASSES AFTER THE CLAIM");
        if (claim.inputState() == ClaimState.ABSENT) {
            report("READ " + claim.input().read(new byte[64]));
        } else {
            report("READ LINE " + new BufferedReader(new InputStreamReader(claim.input(), StandardCharsets.UTF_8)).readLine());
        }
        if (claim.outputState() == ClaimState.ABSENT) {
            try {
                claim.output().write('x');
                report("WRITE SUCCEEDED");
            } catch (IOException e) {
                report("WRITE FAILED " + e.getMessage());
            }
        } else {
            claim.output().write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n".getBytes(StandardCharsets.UTF_8));
        }
        claim.close();
        Class.forName("java.util.concurrent.Exchanger");
        report("RELEASED " + claim.isReleased());
        report("DONE");
    }

    /** Claims, misbehaves, serves every request until end of input, releases. */
    private static void session() throws Exception {
        StdioClaim claim = StdioClaim.acquire();
        report("CLAIM " + claim.platformName() + " isolated=" + claim.isIsolated());
        report("FD1 " + provider.identity(1).kind());
        report("WIRE COPIES " + wireCopies());

        // What careless tools do, on purpose: the claim must divert all of it away from the wire.
        System.out.println("stray println");
        System.err.println("stray stderr"); // under 2>&1 stderr is the wire: claimed too, so diverted
        for (byte b : "unflushed-write".getBytes(StandardCharsets.UTF_8)) {
            System.out.write(b); // stays in System.out's buffer until the release flushes it
        }
        Process child = new ProcessBuilder("sh", "-c", "echo child stdout; cat; echo child saw eof").inheritIO().start();
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
    }

    /** Claims, blocks a reader on the idle wire, and closes under it. */
    private static void idle(String blockedClass, String blockedMethod) throws Exception {
        StdioClaim claim = StdioClaim.acquire();
        Thread reader = new Thread(() -> {
            try {
                int n = claim.input().read(new byte[64]);
                report("READER GOT " + n);
            } catch (IOException e) {
                report("READER ENDED " + e.getClass().getSimpleName());
            }
        }, "blocked-reader");
        reader.start();
        BlockedThreads.awaitInCall(reader, blockedClass, blockedMethod, Duration.ofSeconds(30));
        claim.close();
        reader.join(10_000);
        report("READER ALIVE " + reader.isAlive());
        report("RELEASED " + claim.isReleased());
    }

    /** 1,000 claim and release cycles, each writing one line to the client. */
    private static void cycles() throws Exception {
        for (int i = 0; i < 1000; i++) {
            try (StdioClaim claim = StdioClaim.acquire()) {
                claim.output().write(("{\"jsonrpc\":\"2.0\",\"method\":\"cycle\",\"params\":{\"i\":" + i + "}}\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
        }
        report("CYCLES 1000");
    }

    /** The descriptors other than 0 and 1 that name the wire's files: the private duplicates. */
    private static String wireCopies() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int fd : table().keySet()) {
            try {
                FileIdentity id = provider.identity(fd);
                if (fd > 1 && (id.sameFileAs(wire0) || id.sameFileAs(wire1))) {
                    b.append(fd).append(' ');
                }
            } catch (DescriptorException closedMeanwhile) {
                // gone since the listing
            }
        }
        return b.toString().trim();
    }

    /**
     * Every open descriptor that a claim could create or move (pipes, sockets, the null device,
     * terminals, and 0..2), with what it names. Regular files and the like are left out: the JVM
     * opens and keeps some of its own lazily (cgroup files, jars), which says nothing of a claim.
     */
    private static Map<Integer, String> table() throws IOException {
        // List first and close the listing, so that its own directory descriptor is gone.
        List<Integer> fds;
        try (var list = Files.list(Path.of("/dev/fd"))) {
            fds = list.map(p -> Integer.valueOf(p.getFileName().toString())).collect(Collectors.toList());
        }
        Map<Integer, String> t = new TreeMap<>();
        for (int fd : fds) {
            try {
                FileIdentity id = provider.identity(fd);
                if (fd <= 2 || id.kind() == FileIdentity.Kind.PIPE || id.kind() == FileIdentity.Kind.SOCKET
                        || id.kind() == FileIdentity.Kind.NULL_DEVICE || id.kind() == FileIdentity.Kind.TERMINAL) {
                    t.put(fd, id.kind() + ":" + id.device() + ":" + id.file() + (id.writable() ? ":w" : ":r"));
                }
            } catch (DescriptorException closedMeanwhile) {
                // the listing's own descriptor, closed since
            }
        }
        return t;
    }

    private static synchronized void report(String line) {
        try {
            Files.writeString(report, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
