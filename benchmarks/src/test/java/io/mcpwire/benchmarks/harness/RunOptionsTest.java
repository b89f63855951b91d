package io.mcpwire.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The command line's baseline build: its directory, and the pairs' rounds for its peer. */
class RunOptionsTest {
    private static Peer peer(String name) {
        return new Peer(name, Peer.Kind.STRIPPED, Era.LEGACY, new Peer.Launch.Program(List.of("cat")), name);
    }

    @Test
    void aBaselineBuildIsAnAbsoluteDirectoryAndItsDemoRunsThePairsRounds() {
        RunOptions o = RunOptions.parse(new String[] {"--rounds", "8", "--baseline", "base/../base", "--only", "mcpwire"});
        assertEquals(Optional.of(Path.of("base").toAbsolutePath().normalize()), o.baseline());
        assertEquals(8, o.roundsOf(peer(Pair.SINCE.baseline())), "the baseline's demo, as the demo it is compared with");
        assertEquals(8, o.roundsOf(peer("mcpwire")));
        assertEquals(4, o.roundsOf(peer("cat")), "the others, half as many");
        assertEquals(Optional.empty(), RunOptions.parse(new String[0]).baseline());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunOptions.parse(new String[] {"--baseline"}));
        assertTrue(e.getMessage().contains("--baseline needs a value"), e.getMessage());
    }
}
