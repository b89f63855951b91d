package io.mcpwire.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class the docs name in backticks exists, and so does every member they name on one of
 * mcpwire's classes ({@code Type.member}, {@code Type.member(...)}, {@code Type#member}): a type or
 * method renamed in the code and not in the docs fails here. A name is mcpwire's (a type declared in
 * the sources), the JDK's, or one of the other software's names the docs cite, listed below.
 */
class DocsNamesTest {
    private static final Path ROOT = Path.of("..");
    /** A type's name, camel case with a capital inside, alone or with a member. */
    private static final Pattern NAME = Pattern.compile("([A-Z][a-z][A-Za-z0-9_]*[A-Z][A-Za-z0-9_]*)(?:[.#]([a-z][A-Za-z0-9_]*)(?:\\(.*\\))?)?");
    private static final Pattern DECLARATION = Pattern.compile("\\b(?:class|record|enum|interface|object)\\s+([A-Z]\\w*)");
    /** Other software's names the docs cite, none of them on this module's path. */
    private static final Set<String> OTHERS = Set.of(
            // Win32, as platforms.md cites its calls
            "AssignProcessToJobObject", "CreateJobObjectW", "SetInformationJobObject", "OpenProcess", "CreateEventW", "SetEvent",
            "WaitForMultipleObjects",
            "CancelIoEx", "CancelSynchronousIo", "CompareObjectHandles", "CreatePipe", "DuplicateHandle", "GetConsoleMode",
            "GetFileInformationByHandle", "GetFileType", "GetStdHandle", "OpenThread", "ReadFile", "SetHandleInformation",
            "SetStdHandle", "WriteFile", "CloseHandle", "CreateProcess", "CreateThread", "SetThreadAffinityMask",
            "GetCurrentProcessorNumber", "GetHandleInformation",
            // the NT kernel's, as platforms.md cites the Windows Research Kernel
            "NtCompareObjects", "NtQueryVolumeInformationFile", "FileFsDeviceInformation", "IopSynchronousServiceTail",
            "IopCloseFile", "NtCancelIoFile",
            // OpenJDK's native source file, and the Linux /proc status fields the benchmarks read
            "ProcessImpl_md", "VmHWM", "VmRSS",
            // Spring Boot
            "ApplicationEnvironmentPreparedEvent", "ApplicationListener", "ApplicationStartingEvent",
            "ConfigDataEnvironmentPostProcessor", "EnvironmentPostProcessor", "EnvironmentPostProcessorApplicationListener",
            "LoggingApplicationListener",
            // the official MCP SDKs (Java and TypeScript) and Jackson 2
            "McpServer", "McpServerSession", "StdioServerTransport", "StdioServerTransportProvider", "ElicitFormRequest",
            "StdioMcpTransport", "McpTransportResponse", "McpRequestManager", "McpSyncServer", "McpSchema", "ToolsFeature",
            "UnsupportedProtocolVersionError", "JsonMapper", "StreamReadConstraints",
            // the Kotlin MCP SDK and kotlinx.coroutines
            "AbstractTransport", "ServerSession", "CoroutineDispatcher");

    @Test
    void everyNameTheDocsGiveExists() throws IOException {
        Map<String, List<String>> sources = declaredTypes();
        assertTrue(sources.size() > 100, "read the sources: " + sources.size() + " types");
        List<String> missing = new ArrayList<>();
        Set<String> checked = new TreeSet<>();
        for (Path doc : docs()) {
            String text = Files.readString(doc, StandardCharsets.UTF_8).replaceAll("(?s)```.*?```", "");
            Matcher span = Pattern.compile("`([^`]+)`").matcher(text);
            while (span.find()) {
                Matcher m = NAME.matcher(span.group(1).trim());
                if (!m.matches()) {
                    continue;
                }
                checked.add(span.group(1));
                unknown(m, sources, OTHERS).ifPresent(why -> missing.add(ROOT.relativize(doc) + ": `" + span.group(1) + "`: " + why));
            }
        }
        assertTrue(checked.size() > 50, "checked the docs' names: " + checked.size());
        assertEquals(List.of(), missing, "named in the docs, found nowhere");
    }

    /**
     * Every type the javadoc of the main sources names ({@code {@code Type}}, {@code {@link Type#member}})
     * exists, and so does every member it names on one of mcpwire's types: javadoc that still names
     * a class after it was renamed or removed fails here (the javadoc tool checks links, not code
     * spans). A name is mcpwire's, the JDK's, or one of the other software's names listed.
     */
    @Test
    void everyNameTheJavadocGivesExists() throws IOException {
        Map<String, List<String>> sources = declaredTypes();
        Pattern comment = Pattern.compile("(?s)/\\*\\*(.*?)\\*/");
        Pattern tag = Pattern.compile("\\{@(?:code|link|linkplain)\\s+([^}\\s]+)");
        List<String> missing = new ArrayList<>();
        Set<String> checked = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : (Iterable<Path>) files.filter(DocsNamesTest::mainJavaSource)::iterator) {
                Matcher javadoc = comment.matcher(Files.readString(f, StandardCharsets.UTF_8));
                while (javadoc.find()) {
                    Matcher named = tag.matcher(javadoc.group(1));
                    while (named.find()) {
                        String name = named.group(1).replaceFirst("\\(.*", "").replaceFirst("^(?:[a-z][a-z0-9_]*\\.)+", "");
                        Matcher m = NAME.matcher(name);
                        if (!m.matches()) {
                            continue;
                        }
                        checked.add(name);
                        unknown(m, sources, JAVADOC_OTHERS).ifPresent(why -> missing.add(ROOT.relativize(f) + ": " + name + ": " + why));
                    }
                }
            }
        }
        assertTrue(checked.size() > 100, "checked the javadoc's names: " + checked.size());
        assertEquals(List.of(), missing, "named in javadoc, found nowhere");
    }

    /**
     * Why a name ({@link #NAME}'s match) names nothing: no such type among mcpwire's, the JDK's,
     * {@link #OTHERS} or {@code more}, or no such member on mcpwire's type; empty when it exists.
     */
    private static Optional<String> unknown(Matcher name, Map<String, List<String>> sources, Set<String> more) {
        String type = name.group(1);
        String member = name.group(2);
        List<String> declaring = sources.get(type);
        if (declaring == null) {
            return OTHERS.contains(type) || more.contains(type) || inTheJdk(type) ? Optional.empty() : Optional.of("no type " + type);
        }
        if (member != null && declaring.stream().noneMatch(t -> t.matches("(?s).*\\b" + member + "\\b.*"))) {
            return Optional.of(type + " has no " + member);
        }
        return Optional.empty();
    }

    /** Other software's names the javadoc cites, beyond those the docs cite. */
    private static final Set<String> JAVADOC_OTHERS = Set.of(
            // Win32 and the NT kernel
            "GetLastError", "NtQueryInformationFile", "JobObjectExtendedLimitInformation",
            // a verb of the fake's Windows scripts (platform-test, interop/wine/replay.c)
            "SetHandleProtect",
            // JUnit, the JDK's foreign function API (22 and newer), Quarkus and Quarkus MCP
            "EnabledOnOs", "MemorySegment", "LogHandlerBuildItem", "StdioMcpMessageHandler",
            // the official MCP Java SDK 2.2, and the 2026-07-28 schema
            "JsonRpc", "McpJsonDefaults", "McpJsonMapper", "CacheableResult");

    private static boolean mainJavaSource(Path p) {
        return sourceFile(p) && p.toString().replace('\\', '/').contains("/src/main/java/") && p.toString().endsWith(".java");
    }

    /**
     * Every state the docs quote (a name in capitals, {@code DIVERTED}, {@code KEPT_DIVERTED},
     * {@code DRAINING}) is declared in the code, an enum constant or a constant, and every thread name ({@code mcpwire-stdio-reader})
     * is a string in them or an artifact of the build: a state or thread renamed in the code, and not
     * in the docs, fails here.
     */
    @Test
    void everyStateAndThreadNameTheDocsQuoteExists() throws IOException {
        String sources = String.join("\n", allSources());
        String poms = String.join("\n", poms());
        Pattern state = Pattern.compile("[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,}");
        Pattern thread = Pattern.compile("mcpwire-[a-z0-9]+(?:-[a-z0-9]+)*");
        List<String> missing = new ArrayList<>();
        Set<String> checked = new TreeSet<>();
        for (Path doc : docs()) {
            String text = Files.readString(doc, StandardCharsets.UTF_8).replaceAll("(?s)```.*?```", "");
            Matcher span = Pattern.compile("`([^`]+)`").matcher(text);
            while (span.find()) {
                String name = span.group(1).trim();
                if (state.matcher(name).matches() && !STATE_OTHERS.contains(name)) {
                    checked.add(name);
                    // declared in the code: an enum constant, or a constant; not merely named in a comment
                    Pattern declared = Pattern.compile("(?m)^\\s*" + name + "\\s*(?:[(,;{]|$)|\\b" + name + "\\s*=[^=]");
                    if (!declared.matcher(sources).find()) {
                        missing.add(ROOT.relativize(doc) + ": state `" + name + "`");
                    }
                } else if (thread.matcher(name).matches()) {
                    checked.add(name);
                    if (!sources.contains("\"" + name + "\"") && !sources.contains("\"" + name + "-")
                            && !poms.contains(">" + name + "<")) {
                        missing.add(ROOT.relativize(doc) + ": thread or artifact `" + name + "`");
                    }
                }
            }
        }
        assertTrue(checked.size() > 30, "checked the docs' states and thread names: " + checked);
        assertEquals(List.of(), missing, "quoted in the docs, found nowhere in the code");
    }

    /** Names in capitals the docs quote that are the OS's or another program's, not mcpwire's. */
    private static final Set<String> STATE_OTHERS = Set.of("JSON", "JVM", "API", "SDK", "MCP", "UTF", "NUL", "SPI", "CRT", "UCRT",
            "PATH", "HOME", "TMPDIR", "JAVA_HOME", "JAVA_TOOL_OPTIONS", "MCP_TIMEOUT", "JDK", "FFM", "JNA", "AOT", "CDS", "JIT", "GC",
            "POSIX", "LF", "CRLF", "BOM", "PID", "EOF", "TTY", "CPU", "RSS", "STATUS_HANDLE_NOT_CLOSABLE", "HANDLE_FLAG_PROTECT_FROM_CLOSE",
            "CREATE_BREAKAWAY_FROM_JOB", "PR_SET_CHILD_SUBREAPER",
            // POSIX's, and the environment variables CI and a release read
            "SIGPIPE", "POLLHUP", "POLLERR", "MSG_DONTWAIT", "JAVA_HOME_25_X64", "MAVEN_GPG_PASSPHRASE", "GPG_PRIVATE_KEY",
            "GPG_PASSPHRASE", "CENTRAL_USERNAME", "CENTRAL_PASSWORD", "MCPWIRE_NAME", "MCPWIRE_STRAY_OUTPUT",
            "F_GETPATH", "F_DUPFD_CLOEXEC", "O_CLOEXEC", "O_NONBLOCK", "EAGAIN", "PIPE_BUF",
            // Win32's
            "STD_INPUT_HANDLE", "STD_OUTPUT_HANDLE", "STD_ERROR_HANDLE", "BY_HANDLE_FILE_INFORMATION",
            // the checker's verdict, as it prints it
            "CLEAN");

    /** The text of every Java and Kotlin source of the project. */
    private static List<String> allSources() throws IOException {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : (Iterable<Path>) files.filter(DocsNamesTest::sourceFile)::iterator) {
                texts.add(Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return texts;
    }

    /** The text of every pom of the project. */
    private static List<String> poms() throws IOException {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.getFileName().toString().equals("pom.xml")
                    && !p.toString().contains("/target/") && !p.toString().contains("node_modules"))::iterator) {
                texts.add(Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return texts;
    }

    private static List<Path> docs() throws IOException {
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            List<Path> all = docs.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList());
            all.add(ROOT.resolve("README.md"));
            return all;
        }
    }

    /** Each type declared in the Java sources, with the text of every file that declares one by that name. */
    private static Map<String, List<String>> declaredTypes() throws IOException {
        Map<String, List<String>> types = new HashMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : (Iterable<Path>) files.filter(DocsNamesTest::sourceFile)::iterator) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                Matcher m = DECLARATION.matcher(text);
                while (m.find()) {
                    types.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(text);
                }
            }
        }
        return types;
    }

    private static boolean sourceFile(Path p) {
        String s = p.toString().replace('\\', '/');
        return (s.endsWith(".java") || s.endsWith(".kt")) && !s.contains("/target/") && !s.contains("/node_modules/") && !s.contains("/.git/");
    }

    /** Whether a class of that simple name is in a module of the JDK. */
    private static boolean inTheJdk(String simpleName) {
        return ModuleLayer.boot().modules().stream().flatMap(m -> m.getPackages().stream()).anyMatch(pkg -> {
            try {
                Class.forName(pkg + "." + simpleName, false, ClassLoader.getPlatformClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        });
    }
}
