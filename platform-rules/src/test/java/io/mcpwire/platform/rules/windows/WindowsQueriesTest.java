package io.mcpwire.platform.rules.windows;

import static io.mcpwire.platform.rules.windows.ScriptedWin32.EMFILE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.Probe;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.rules.NativeBinding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * What the Windows rules ask and open over a scripted {@link Win32}: a descriptor's identity (on
 * fd 0 to 2 asked on the query lane, not asked behind this table's own pending I/O, a pipe that
 * can stall when asking would wait), the origin of fd 0 to 2, {@code describe} without a query,
 * the null device and the stray-output file opened uninherited; and the error each failing call gives.
 */
class WindowsQueriesTest {
    private final ScriptedWin32 w = ScriptedWin32.startedOnPipes();
    private final WindowsPlatform rules = w.platform();

    @Test
    void aStandardDescriptorsIdentityIsAskedOnTheQueryLane() throws Exception {
        assertEquals(new FileIdentity(0, 0x14, FileIdentity.Kind.PIPE, true), rules.identity(1), "a pipe has no file index: its handle");
        assertEquals(List.of("_get_osfhandle(1)", "GetFileType(0x14)"), w.calls());
        assertEquals("mcpwire-windows-query", w.threadOf("GetFileType(0x14)"));
    }

    @Test
    void eachKindIsToldFromGetFileTypeThenTheConsoleModeOrTheFileIndex() throws Exception {
        w.open(3, 0x40, "nul");
        w.open(4, 0x44, "console");
        w.open(5, 0x48, "file:C:\\logs\\a.log");
        w.open(6, 0x4c, "file:C:\\logs\\a.log");
        w.open(7, 0x50, "mailslot");
        assertEquals(new FileIdentity(0, 0x40, FileIdentity.Kind.NULL_DEVICE, true), rules.identity(3));
        assertEquals(new FileIdentity(0, 0x44, FileIdentity.Kind.TERMINAL, true), rules.identity(4));
        FileIdentity file = rules.identity(5);
        assertEquals(new FileIdentity(0x5eed, "file:C:\\logs\\a.log".hashCode() & 0xffffffffL, FileIdentity.Kind.FILE, true), file);
        assertEquals(file, rules.identity(6), "two handles on one file: one identity");
        assertEquals(FileIdentity.Kind.OTHER, rules.identity(7).kind());
        assertEquals(List.of("GetFileType(0x40)", "GetConsoleMode(0x40)", "GetFileType(0x44)", "GetConsoleMode(0x44)", "GetFileType(0x48)",
                "GetFileInformationByHandle(0x48)", "GetFileType(0x4c)", "GetFileInformationByHandle(0x4c)", "GetFileType(0x50)"),
                w.actions());
        assertEquals(Thread.currentThread().getName(), w.threadOf("GetFileType(0x40)"), "above fd 2, asked on the calling thread");
    }

    @Test
    void aFailingQueryIsAnErrorNamingTheCallTheDescriptorAndTheWin32Error() {
        w.answer("GetFileType", WindowsPlatform.FILE_TYPE_UNKNOWN, ScriptedWin32.ERROR_INVALID_HANDLE);
        DescriptorException type = assertThrows(DescriptorException.class, () -> rules.identity(1));
        assertEquals("GetFileType(fd 1) failed on fd 1: GetLastError 6 ERROR_INVALID_HANDLE [error 6]", type.getMessage(),
                "an answer of the query lane's own, not taken for a stall");
        w.open(4, 0x44, "file:C:\\logs\\a.log");
        w.fails("GetFileInformationByHandle", ScriptedWin32.ERROR_ACCESS_DENIED);
        DescriptorException info = assertThrows(DescriptorException.class, () -> rules.identity(4));
        assertEquals("GetFileInformationByHandle(fd 4) failed on fd 4: GetLastError 5 ERROR_ACCESS_DENIED [error 5]", info.getMessage());
        DescriptorException closed = assertThrows(DescriptorException.class, () -> rules.identity(9));
        assertEquals("identity(9) failed on fd 9: _get_osfhandle(9): errno 9 EBADF (Bad file descriptor) [error 9]", closed.getMessage());
    }

    @Test
    void aQueryThatWaitsTooLongIsAnsweredAsAPipeThatCanStallAndLoggedAsIsTheNextOnTheWedgedLane() throws Exception {
        Hold query = w.hold("GetFileType(0x14)");
        try (CapturedLog log = CapturedLog.start()) {
            assertEquals(new FileIdentity(0, 0x14, FileIdentity.Kind.PIPE, true), rules.identity(1));
            assertTrue(log.text().contains("fd 1 (handle 0x14): GetFileType did not return in time"), log.text());
            assertEquals(new FileIdentity(0, 0x18, FileIdentity.Kind.PIPE, true), rules.identity(2));
            assertTrue(log.text().contains("fd 2 (handle 0x18): GetFileType not made: an earlier call on the query thread has not returned"),
                    log.text());
            assertFalse(w.calls().contains("GetFileType(0x18)"), "not queued behind the late query");
        }
        query.releaseAndAwaitWorker();
        assertEquals(FileIdentity.Kind.PIPE, rules.identity(2).kind());
        assertTrue(w.calls().contains("GetFileType(0x18)"), "the lane is free once the late query returned");
    }

    @Test
    void aFileThatThisTablesStreamsHaveAReadPendingOnIsNotAskedAboutThroughAnyHandle() throws Exception {
        w.open(3, 0x1000, "pipe:client-in"); // a private duplicate of the wire
        Hold read = w.hold("ReadFile(0x10, 8)");
        DescriptorStream stdin = rules.open(0);
        CompletableFuture<Integer> reading = CompletableFuture.supplyAsync(() -> {
            try {
                return stdin.read(new byte[8], 0, 8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        read.awaitEntered();
        w.forgetCalls();
        try (CapturedLog log = CapturedLog.start()) {
            assertEquals(new FileIdentity(0, 0x1000, FileIdentity.Kind.PIPE, true), rules.identity(3));
            assertTrue(log.text().contains("GetFileType not asked: a ReadFile or WriteFile of this provider's is pending on its file"),
                    log.text());
        }
        assertEquals(List.of("_get_osfhandle(3)", "CompareObjectHandles(0x10, 0x1000)"), w.calls(), "it would wait behind the read");
        stdin.wakeUp();
        ExecutionException woken = assertThrows(ExecutionException.class, reading::get);
        assertTrue(woken.getCause().getCause() instanceof AsynchronousCloseException, woken.toString());
        w.forgetCalls();
        rules.identity(3);
        assertEquals(List.of("_get_osfhandle(3)", "GetFileType(0x1000)"), w.calls(), "asked once the read has left");
    }

    @Test
    void sameFileComparesTheKernelObjectsAndWithoutTheCallAnswersSame() throws Exception {
        w.open(3, 0x1000, "pipe:client-out");
        assertTrue(rules.sameFile(1, 3));
        assertFalse(rules.sameFile(1, 2));
        assertEquals(List.of("_get_osfhandle(1)", "_get_osfhandle(3)", "CompareObjectHandles(0x14, 0x1000)", "_get_osfhandle(1)",
                "_get_osfhandle(2)", "CompareObjectHandles(0x14, 0x18)"), w.calls(), "no query that a pending read could hold up");
        w.removeCompareObjectHandles();
        assertTrue(rules.sameFile(0, 1), "before Windows 10 1607: the same, so stray output goes to NUL rather than risk the wire");
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.sameFile(1, 9));
        assertEquals("sameFile(1, 9) failed on fd 9: _get_osfhandle(9): errno 9 EBADF (Bad file descriptor) [error 9]", e.getMessage());
    }

    @Test
    void theOriginIsClosedWithoutAHandleTheProcessesOwnWithAnEmptySlotElseInherited() throws Exception {
        assertEquals(StandardOrigin.INHERITED, rules.standardOrigin(1));
        w.slot(1, 0);
        assertEquals(StandardOrigin.PROCESS_OWN, rules.standardOrigin(1), "the parent gave no stdout");
        w.slot(1, -1);
        assertEquals(StandardOrigin.PROCESS_OWN, rules.standardOrigin(1));
        w.open(1, -2, null);
        assertEquals(StandardOrigin.CLOSED, rules.standardOrigin(1), "open with no OS handle: started without that stream");
        w.closed(1);
        assertEquals(StandardOrigin.CLOSED, rules.standardOrigin(1));
        w.forgetCalls();
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.standardOrigin(3));
        assertEquals("standardOrigin(3) failed on fd 3: not a standard descriptor", e.getMessage());
        assertEquals(List.of(), w.calls());
    }

    @Test
    void describeNamesTheHandleAndTheSlotWithoutAQuery() {
        w.open(2, -2, null);
        w.open(5, 0x40, "pipe:drain");
        assertEquals("handle 0x14, STD_OUTPUT_HANDLE 0x14", rules.describe(1));
        assertEquals("open with no OS handle, STD_ERROR_HANDLE 0x18", rules.describe(2));
        assertEquals("handle 0x40", rules.describe(5));
        assertEquals("not open", rules.describe(9));
        assertTrue(w.calls().stream().allMatch(c -> c.startsWith("_get_osfhandle") || c.startsWith("GetStdHandle")), w.calls().toString());
    }

    @Test
    void withoutItsBindingEveryCallSaysWhyAndDescribeDoesNotThrow() {
        WindowsPlatform unloadable = new WindowsPlatform(NativeBinding.lazy("scripted Win32", () -> {
            throw new UnsupportedOperationException("not Windows");
        }), DescriptorTable.create("no binding"), w.patience()) {
            @Override
            public String name() {
                return "unloadable";
            }

            @Override
            public int priority() {
                return 0;
            }
        };
        assertEquals("not Windows", ((Probe.Unavailable) unloadable.probe()).reason());
        DescriptorException e = assertThrows(DescriptorException.class, () -> unloadable.duplicate(0));
        assertEquals("load scripted Win32 failed: java.lang.UnsupportedOperationException: not Windows", e.getMessage());
        assertEquals("(cannot tell: load scripted Win32 failed: java.lang.UnsupportedOperationException: not Windows)",
                unloadable.describe(1));
    }

    @Test
    void theNullDeviceIsOpenedBinaryAndUninheritedWithTheAccessAsked() throws Exception {
        assertEquals(3, rules.openNullDevice(Access.READ));
        assertEquals(4, rules.openNullDevice(Access.WRITE));
        assertEquals(List.of("_open(NUL, 0x8080)", "_open(NUL, 0x8081)"), w.calls(), "_O_BINARY|_O_NOINHERIT, and _O_WRONLY for WRITE");
        w.fails("_open", EMFILE);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.openNullDevice(Access.WRITE));
        assertEquals("_open(\"NUL\", WRITE) failed: errno 24 EMFILE (Too many open files) [error 24]", e.getMessage());
    }

    @Test
    void theStrayOutputFileIsOpenedWideForAppendingCreatedWhenMissingAndUninherited() throws Exception {
        assertEquals(3, rules.openAppend("C:\\logs\\stray.log"));
        assertEquals(List.of("_wopen(C:\\logs\\stray.log, 0x8189, 0x180)"), w.calls(),
                "_O_WRONLY|_O_APPEND|_O_CREAT|_O_BINARY|_O_NOINHERIT, _S_IREAD|_S_IWRITE");
        w.fails("_wopen", 13);
        DescriptorException e = assertThrows(DescriptorException.class, () -> rules.openAppend("C:\\logs\\stray.log"));
        assertEquals("_wopen(\"C:\\logs\\stray.log\", _O_WRONLY|_O_APPEND|_O_CREAT) failed: errno 13 EACCES (Permission denied) [error 13]",
                e.getMessage());
    }
}
