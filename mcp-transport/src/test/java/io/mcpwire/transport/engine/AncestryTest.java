package io.mcpwire.transport.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which command lines are wrappers that wait for the server and pass the host's stdio through, and which are hosts. */
class AncestryTest {
    @Test
    void shellsRunningACommandOrAScriptAreWrappers() {
        assertTrue(Ancestry.isWrapper(List.of("/bin/sh", "-c", "java -jar server.jar; exit $?")));
        assertTrue(Ancestry.isWrapper(List.of("/usr/bin/bash", "-ec", "java -jar server.jar")));
        assertTrue(Ancestry.isWrapper(List.of("/bin/dash", "./run-server.sh")), "a wrapper script that does not exec");
        assertTrue(Ancestry.isWrapper(List.of("bash", "-e", "/opt/server/bin/start")));
    }

    @Test
    void windowsInterpretersAreWrappersWhenTheyRunACommandOrWhenOnlyTheProgramIsKnown() {
        assertTrue(Ancestry.isWrapper(List.of("C:\\Windows\\System32\\cmd.exe", "/d", "/s", "/c", "\"server.cmd\"")));
        assertTrue(Ancestry.isWrapper(List.of("C:\\Windows\\System32\\cmd.exe")), "Windows: the JDK reads no arguments of another process");
        assertTrue(Ancestry.isWrapper(List.of("pwsh", "-NoProfile", "-File", "server.ps1")));
        assertTrue(Ancestry.isWrapper(List.of("powershell.exe", "-EncodedCommand", "ZQBjAGgAbwA=")));
        assertFalse(Ancestry.isWrapper(List.of("C:\\Windows\\System32\\cmd.exe", "/k")), "an interactive cmd is a person's console");
    }

    @Test
    void interactiveShellsProgramsThatCanBeHostsAndUnreadableLinesAreHosts() {
        assertFalse(Ancestry.isWrapper(List.of("/bin/bash")), "an interactive shell is a terminal: the host");
        assertFalse(Ancestry.isWrapper(List.of("-bash")));
        assertFalse(Ancestry.isWrapper(List.of("zsh", "-i", "-l")));
        assertFalse(Ancestry.isWrapper(List.of("/usr/bin/node", "/opt/host/index.js")), "node can be a host: never a wrapper by name");
        assertFalse(Ancestry.isWrapper(List.of("/usr/bin/python3", "-c", "import x")));
        assertFalse(Ancestry.isWrapper(List.of()), "unreadable: taken for the host");
        assertFalse(Ancestry.isWrapper(List.of("/")), "no program name");
    }
}
