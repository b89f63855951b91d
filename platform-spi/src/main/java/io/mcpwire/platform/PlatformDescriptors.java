package io.mcpwire.platform;

import java.util.Optional;

/**
 * The service provider interface through which the stream claim reaches a descriptor table.
 *
 * <p>A provider acts on the C-level descriptor table of one process (the real one, or a fake
 * model of one for tests). The claim engine finds providers with {@link java.util.ServiceLoader}
 * and never sees how they reach the operating system. Every operation either succeeds or throws a
 * {@link DescriptorException}, and says below what a failure leaves behind: the engine's safety
 * rules (roll back, roll forward, keep the claim) depend on it.
 *
 * <p>Implementations must be thread-safe. Instances found by {@code ServiceLoader} are
 * constructed cheaply: loading native code waits until {@link #probe()}, the one explicit place
 * for it, or an operation needs it. The engine asks {@link #spiVersion()} first and passes over a
 * provider built for another version of this interface, saying so.
 *
 * <p>The engine calls a provider while it holds its own monitors (a claim's, and a served
 * descriptor's): a provider must not call back into the engine (claim, release or serve a stream)
 * from any operation, and should take no lock that code calling the engine may hold.
 *
 * <h2>Duties</h2>
 *
 * <p>Every provider: the descriptor operations below, each with the atomicity and the failure
 * semantics it states; {@link #open} a stream whose {@link DescriptorStream#wakeUp()} unblocks a
 * pending call; {@link #standardOrigin}, so that a descriptor the JVM owns is never taken.
 *
 * <p>A provider whose JVM keeps standard handles of its own, apart from the descriptors, also
 * offers {@link #standardHandleDuties()}: what it owes after each move of a standard descriptor.
 * A provider whose JVM streams are the descriptors themselves offers none and meets none of it.
 * The provider kit ({@code mcpwire-platform-test-kit}) checks each duty and names the one a
 * provider skipped.
 */
public interface PlatformDescriptors {

    /**
     * This interface's version. 1: before versions ({@code isSupported()} and
     * {@code unavailabilityCause()}). 2: {@link #spiVersion()}, {@link #probe()} and {@link #pipe()}.
     * 3: {@code followStartupHandle} and {@code cancelStrandedReads} apart from
     * {@code rebindStandardHandle}, which only sets the slot; {@code moveStandard}, a move as one
     * step; {@link DescriptorStream#prepare()}. 4: {@link #tieChildrenToProcess()}. 5: the duties
     * after a move in a facet of their own, {@link #standardHandleDuties()}, which
     * {@code rebindStandardHandle}, {@code followStartupHandle}, {@code cancelStrandedReads} and
     * {@code moveStandard} left this interface for; {@link #jvmStreamsFollowDescriptors()} a default.
     * 6: {@link #processExits()}.
     */
    int SPI_VERSION = 6;

    /**
     * The oldest version whose providers the engine still runs: every method added since is a
     * default, whose absence the engine treats as the provider's "cannot". Version 1 providers lack
     * {@link #probe()}. A provider of versions 2 to 4 whose JVM streams do not follow the
     * descriptors is passed over all the same: its duties after a move are methods this interface no
     * longer has, so that it offers no {@link StandardHandleDuties}.
     */
    int OLDEST_SPI_VERSION = 2;

    /** The standard input descriptor. */
    int STDIN = 0;
    /** The standard output descriptor. */
    int STDOUT = 1;
    /** The standard error descriptor. */
    int STDERR = 2;

    /** A short name for logs and for explicit choice ({@code -Dmcpwire.platform=NAME}). */
    String name();

    /**
     * The version of this interface the provider was built for: implement it as
     * {@code return PlatformDescriptors.SPI_VERSION;}, which the compiler copies into the
     * provider's own class, so that the engine can tell a provider built for another version.
     */
    int spiVersion();

    /**
     * Whether this provider can work in this process (operating system, native library), loading
     * its native code if it must, at most once: later calls give the same answer at once. Never
     * throws: a failure to load is an {@link Probe.Unavailable} with the failure as its cause.
     */
    Probe probe();

    /**
     * Among supported providers, the highest priority is chosen automatically. A provider with a
     * negative priority is never chosen automatically, only by name (test fixtures do this).
     */
    int priority();

    /**
     * Whether the JVM's {@code System.in} and {@code System.out} read and write descriptors 0 and
     * 1 themselves. When false the engine also swaps {@code System.in} and {@code System.out} for
     * the session. The default says they do exactly when the provider offers no
     * {@link #standardHandleDuties()}.
     */
    default boolean jvmStreamsFollowDescriptors() {
        return standardHandleDuties().isEmpty();
    }

    /**
     * What this provider owes after each move of a standard descriptor, where the JVM keeps
     * standard handles of its own apart from the descriptors; empty where the JVM's streams are the
     * descriptors themselves. The engine passes over a provider whose streams do not follow the
     * descriptors and that offers none. Cheap and constant: the same answer every time.
     */
    default Optional<StandardHandleDuties> standardHandleDuties() {
        return Optional.empty();
    }

    /**
     * Waits for other processes' exits without polling, where this provider and the system can;
     * empty otherwise, and the host watch then polls. Cheap and constant: the same answer every
     * time (whether the system grants a wait shows when one is opened).
     */
    default Optional<ProcessExits> processExits() {
        return Optional.empty();
    }

    /**
     * Identifies the descriptor table this provider acts on. Claims are registered per table:
     * every provider of the real process keeps the default ({@link DescriptorTable#PROCESS}); a
     * fake returns its own table, which stands for a process of its own, so that a claim on it
     * does not end the JVM's child processes at its release.
     */
    default DescriptorTable descriptorTable() {
        return DescriptorTable.PROCESS;
    }

    /**
     * Duplicates {@code fd} onto a new descriptor numbered 3 or above that child processes do not
     * inherit (close-on-exec, non-inheritable handle). It need not be one call, but no child that
     * {@code ProcessBuilder} starts may inherit the duplicate in between. On POSIX it is one call
     * ({@code F_DUPFD_CLOEXEC}). On Windows it is a {@code _dup}, whose handle is inheritable until
     * {@code SetHandleInformation} clears the flag, both made holding the monitor the JDK takes
     * around each child start (a child started natively, by {@code system()} or {@code _spawn},
     * can still inherit it); a duplicate that lands on 0, 1 or 2 is closed again and refused.
     *
     * @return the new descriptor, never 0, 1 or 2
     * @throws DescriptorException when no such duplicate could be made; nothing was allocated
     */
    int duplicateAboveStandard(int fd) throws DescriptorException;

    /**
     * Duplicates {@code fd} onto the lowest free descriptor, not inherited by child processes.
     *
     * @throws DescriptorException on failure; nothing was allocated
     */
    int duplicate(int fd) throws DescriptorException;

    /**
     * Makes {@code target} refer to the open file of {@code source} ({@code dup2}). Atomic on
     * POSIX. On failure {@code target} is unchanged on POSIX; on Windows the C runtime may have
     * closed {@code target} before failing, and the exception reports it all the same.
     */
    void duplicateOnto(int source, int target) throws DescriptorException;

    /**
     * Opens the null device ({@code /dev/null}, {@code NUL}) on the lowest free descriptor, not
     * inherited by child processes.
     *
     * @throws DescriptorException on failure; nothing was allocated
     */
    int openNullDevice(Access access) throws DescriptorException;

    /**
     * Opens {@code path} for appending, creating it when missing, on the lowest free descriptor,
     * not inherited by child processes: where stray output goes when the user names a file
     * ({@code -Dmcpwire.stray-output=PATH}). The default says the provider cannot.
     *
     * @throws DescriptorException on failure; nothing was allocated
     */
    default int openAppend(String path) throws DescriptorException {
        throw new DescriptorException("open(\"" + path + "\", append)", -1, 0,
                "the " + name() + " provider cannot open files");
    }

    /**
     * Makes a pipe whose two ends are numbered 3 or above and are not inherited by child processes:
     * the claim diverts stray output into it, and a thread of its own carries it on to stderr, so
     * that a stderr nobody reads never blocks a writer. The default says the provider cannot; the
     * claim then diverts stray output to stderr directly.
     *
     * @throws DescriptorException on failure; nothing was allocated
     */
    default PipeEnds pipe() throws DescriptorException {
        throw new DescriptorException("pipe()", -1, 0, "the " + name() + " provider cannot make pipes");
    }

    /**
     * Closes {@code fd}. Never retried: on Linux a close interrupted by a signal has still freed
     * the descriptor, and retrying could close a descriptor another thread just opened.
     *
     * @throws DescriptorException when the close reported an error; the descriptor may or may not
     *                             have been freed (on Linux it always is)
     */
    void close(int fd) throws DescriptorException;

    /**
     * Whether standard descriptor {@code fd} (0, 1 or 2) is one the parent process gave, one this
     * process opened for itself after the parent gave none, or closed. The claim touches only an
     * {@link StandardOrigin#INHERITED} descriptor: a JVM started with fd 0 closed has its module
     * image there, and serving or diverting that file would crash it.
     *
     * <p>The default says {@link StandardOrigin#INHERITED}, as a provider that cannot tell must:
     * a provider that can tell the process's own files apart (Linux: {@code /proc/self/fd};
     * macOS: {@code F_GETPATH}; Windows: the standard-handle slots) overrides it.
     *
     * @throws DescriptorException when the origin cannot be told; the claim then leaves the
     *                             descriptor alone (a JVM file taken for the wire would crash the
     *                             JVM), and its stream fails with this reason
     */
    default StandardOrigin standardOrigin(int fd) throws DescriptorException {
        return StandardOrigin.INHERITED;
    }

    /**
     * What {@code fd} refers to as the operating system names it, for diagnostics only: the path
     * {@code F_GETPATH} gives on macOS, the {@code /proc/self/fd} link on Linux (such as
     * {@code pipe:[123]}), the OS handle on Windows. Never throws: a failure is described in the
     * answer. The default says the provider cannot tell.
     */
    default String describe(int fd) {
        return "(the " + name() + " provider cannot describe fd " + fd + ")";
    }

    /**
     * Identifies the file {@code fd} refers to, to tell whether two descriptors share a file
     * (for example {@code 2>&1}).
     *
     * @throws DescriptorException when {@code fd} is closed or cannot be examined
     */
    FileIdentity identity(int fd) throws DescriptorException;

    /**
     * Whether descriptors {@code a} and {@code b} refer to the same file or object (for example
     * {@code 2>&1}). The default compares {@link #identity} values; a provider whose identities
     * cannot tell (Windows pipes have no file index) compares the objects themselves.
     *
     * @throws DescriptorException when either descriptor cannot be examined
     */
    default boolean sameFile(int a, int b) throws DescriptorException {
        return identity(a).sameFileAs(identity(b));
    }

    /**
     * Opens a stream that reads and writes {@code fd} directly, whose
     * {@link DescriptorStream#wakeUp()} unblocks a pending read or write. The stream never closes
     * {@code fd} itself.
     *
     * @throws DescriptorException when the stream's own resources cannot be set up
     */
    DescriptorStream open(int fd) throws DescriptorException;

    /**
     * Ties the processes this JVM starts from now on to its life, so that they end when it ends,
     * however it ends, killed included; says whether the tie holds. The engine calls it when a claim
     * that ends the server's children ({@code mcpwire.children=end}) is made, and logs a failure,
     * which changes nothing else. The tie outlives the claim: it cannot be undone, and a second call
     * keeps the first tie. On Windows, a job object that kills its processes when its last handle
     * closes, which the process holds until it ends. The default says the provider cannot: POSIX
     * has no tie that holds when the JVM is ended with SIGKILL.
     *
     * @return whether the processes started from now on end with this one
     * @throws DescriptorException naming the call and the OS error, when making the tie failed
     */
    default boolean tieChildrenToProcess() throws DescriptorException {
        return false;
    }
}
