package io.mcpwire.platform.windows;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.mcpwire.platform.Access;
import io.mcpwire.platform.DescriptorException;
import io.mcpwire.platform.DescriptorStream;
import io.mcpwire.platform.DescriptorTable;
import io.mcpwire.platform.FileIdentity;
import io.mcpwire.platform.PlatformDescriptors;
import io.mcpwire.platform.StandardOrigin;
import io.mcpwire.platform.support.NativeBinding;
import io.mcpwire.platform.windows.jna.Kernel32;
import io.mcpwire.platform.windows.jna.KernelBase;
import io.mcpwire.platform.windows.jna.Ucrt;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * The provider for Windows: the Universal C Runtime's descriptors ({@code _dup2}, {@code _close},
 * {@code _open("NUL")}, {@code _get_osfhandle}, {@code _open_osfhandle}) and the Win32 standard
 * handles ({@code SetStdHandle}), via JNA.
 *
 * <p>Both layers are rebound because they are separate: C code and the JVM's native libraries use
 * the C runtime's table, while a child process inherits the Win32 standard-handle slots. The
 * private duplicate is a {@code DuplicateHandle} without inheritance wrapped in a new C runtime
 * descriptor, refused when it lands on 0, 1 or 2. The JVM's own {@code System.in}/{@code
 * System.out} keep the handles captured at start-up, so this provider says
 * {@link #jvmStreamsFollowDescriptors()} is false and the engine swaps them for the session.
 *
 * <p>Constructing it loads nothing; JNA and the libraries load on the first call that needs them.
 * 64-bit Windows only.
 */
public final class WindowsDescriptors implements PlatformDescriptors {
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_APPEND = 0x8;
    static final int O_NOINHERIT = 0x80;
    static final int O_CREAT = 0x100;
    static final int S_IREAD_IWRITE = 0x100 | 0x80;
    static final int O_BINARY = 0x8000;
    private static final int[] STD_SLOTS = {Kernel32.STD_INPUT_HANDLE, Kernel32.STD_OUTPUT_HANDLE, Kernel32.STD_ERROR_HANDLE};
    private static final String[] STD_NAMES = {"STD_INPUT_HANDLE", "STD_OUTPUT_HANDLE", "STD_ERROR_HANDLE"};

    /** The bound libraries, and where the last Win32 error is read. */
    record Libraries(Ucrt ucrt, Kernel32 kernel32, KernelBase kernelBase, IntSupplier lastError) {
    }

    private final NativeBinding<Libraries> libraries;
    /** The real process's table, or, over mock bindings, a table of their own. */
    private final DescriptorTable table;

    /** Creates the provider; cheap, loads nothing native. */
    public WindowsDescriptors() {
        this.libraries = NativeBinding.lazy("the C runtime and kernel32 through JNA", WindowsDescriptors::bind);
        this.table = DescriptorTable.PROCESS;
    }

    /** A provider over the given bindings (tests give mocks). */
    WindowsDescriptors(Libraries libraries) {
        this.libraries = NativeBinding.of("mock bindings", libraries);
        this.table = DescriptorTable.create("the descriptor table of mock Windows bindings");
    }

    private static Libraries bind() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("windows")) {
            throw new UnsupportedOperationException("not Windows (os.name=" + os + ")");
        }
        if (!com.sun.jna.Platform.is64Bit()) {
            throw new UnsupportedOperationException("32-bit Windows is not supported");
        }
        KernelBase kernelBase;
        try {
            kernelBase = Native.load("kernelbase", KernelBase.class);
        } catch (UnsatisfiedLinkError e) {
            kernelBase = null; // handles are then compared conservatively
        }
        return new Libraries(Native.load("ucrtbase", Ucrt.class), Native.load("kernel32", Kernel32.class),
                kernelBase, Native::getLastError);
    }

    private Libraries libs() throws DescriptorException {
        return libraries.get();
    }

    @Override
    public String name() {
        return "windows";
    }

    @Override
    public boolean isSupported() {
        return libraries.isAvailable();
    }

    @Override
    public String unavailabilityCause() {
        return libraries.unavailabilityMessage();
    }

    @Override
    public int priority() {
        return 100;
    }

    @Override
    public boolean jvmStreamsFollowDescriptors() {
        return false; // FileDescriptor.in/out keep the handles the JVM captured at start-up
    }

    /** The real process's table, or, over substituted bindings, whatever those bindings model. */
    @Override
    public DescriptorTable descriptorTable() {
        return table;
    }

    @Override
    public int duplicateAboveStandard(int fd) throws DescriptorException {
        Libraries l = libs();
        int dup = duplicateUninherited(l, fd, "duplicateAboveStandard(" + fd + ")");
        if (dup <= STDERR) {
            QuietCrt.call(l.ucrt(), () -> l.ucrt()._close(dup));
            throw new DescriptorException("duplicateAboveStandard(" + fd + ")", fd, 0,
                    "the duplicate landed on fd " + dup + ", a standard descriptor (closed it again)");
        }
        return dup;
    }

    @Override
    public int duplicate(int fd) throws DescriptorException {
        Libraries l = libs();
        return duplicateUninherited(l, fd, "duplicate(" + fd + ")");
    }

    /** A non-inheritable duplicate of fd's OS handle, on the lowest free C runtime descriptor. */
    private static int duplicateUninherited(Libraries l, int fd, String op) throws DescriptorException {
        long handle = osHandle(l, fd, op);
        LongByReference copy = new LongByReference();
        long self = l.kernel32().GetCurrentProcess();
        if (!l.kernel32().DuplicateHandle(self, handle, self, copy, 0, false, Kernel32.DUPLICATE_SAME_ACCESS)) {
            throw win32Error(l, "DuplicateHandle(fd " + fd + ")", fd);
        }
        int dup = QuietCrt.call(l.ucrt(), () -> l.ucrt()._open_osfhandle(copy.getValue(), O_BINARY));
        if (dup < 0) {
            DescriptorException e = crtError(l, "_open_osfhandle(" + op + ")", fd);
            l.kernel32().CloseHandle(copy.getValue());
            throw e;
        }
        return dup;
    }

    @Override
    public void duplicateOnto(int source, int target) throws DescriptorException {
        Libraries l = libs();
        if (QuietCrt.call(l.ucrt(), () -> l.ucrt()._dup2(source, target)) != 0) {
            // The Universal C Runtime may have closed the target before failing: said, never hidden.
            DescriptorException e = crtError(l, "_dup2(" + source + ", " + target + ")", target);
            throw new DescriptorException(e.operation(), target, e.errorCode(),
                    e.errorText() + "; fd " + target + " may have been closed before the failure");
        }
    }

    @Override
    public int openNullDevice(Access access) throws DescriptorException {
        Libraries l = libs();
        int flags = (access == Access.READ ? O_RDONLY : O_WRONLY) | O_BINARY | O_NOINHERIT;
        int fd = QuietCrt.call(l.ucrt(), () -> l.ucrt()._open("NUL", flags));
        if (fd < 0) {
            throw crtError(l, "_open(\"NUL\", " + access + ")", -1);
        }
        return fd;
    }

    @Override
    public int openAppend(String path) throws DescriptorException {
        Libraries l = libs();
        int flags = O_WRONLY | O_APPEND | O_CREAT | O_BINARY | O_NOINHERIT;
        int fd = QuietCrt.call(l.ucrt(), () -> l.ucrt()._wopen(new WString(path), flags, S_IREAD_IWRITE));
        if (fd < 0) {
            throw crtError(l, "_wopen(\"" + path + "\", _O_WRONLY|_O_APPEND|_O_CREAT)", -1);
        }
        return fd;
    }

    /**
     * Closed when the C runtime has no OS handle on {@code fd} (a process started without that
     * stream has none there); the process's own when it has one but the Win32 standard slot, which
     * the parent fills, is empty; inherited otherwise.
     */
    @Override
    public StandardOrigin standardOrigin(int fd) throws DescriptorException {
        if (fd < STDIN || fd > STDERR) {
            throw new DescriptorException("standardOrigin(" + fd + ")", fd, 0, "not a standard descriptor");
        }
        Libraries l = libs();
        long handle = QuietCrt.osHandle(l.ucrt(), fd);
        if (handle == -1 || handle == -2) {
            return StandardOrigin.CLOSED;
        }
        long slot = l.kernel32().GetStdHandle(STD_SLOTS[fd]);
        return slot == 0 || slot == -1 ? StandardOrigin.PROCESS_OWN : StandardOrigin.INHERITED;
    }

    @Override
    public void close(int fd) throws DescriptorException {
        Libraries l = libs();
        if (QuietCrt.call(l.ucrt(), () -> l.ucrt()._close(fd)) != 0) {
            throw crtError(l, "_close(" + fd + ")", fd);
        }
    }

    @Override
    public void rebindStandardHandle(int fd) throws DescriptorException {
        if (fd < STDIN || fd > STDERR) {
            throw new DescriptorException("rebindStandardHandle(" + fd + ")", fd, 0, "not a standard descriptor");
        }
        Libraries l = libs();
        long handle = osHandle(l, fd, "rebindStandardHandle(" + fd + ")");
        if (!l.kernel32().SetStdHandle(STD_SLOTS[fd], handle)) {
            throw win32Error(l, "SetStdHandle(" + STD_NAMES[fd] + ")", fd);
        }
    }

    @Override
    public FileIdentity identity(int fd) throws DescriptorException {
        Libraries l = libs();
        long handle = osHandle(l, fd, "identity(" + fd + ")");
        int type = l.kernel32().GetFileType(handle);
        // The access of a Windows handle is not queried: standard handles are taken as writable.
        switch (type) {
            case Kernel32.FILE_TYPE_CHAR: {
                boolean console = l.kernel32().GetConsoleMode(handle, new IntByReference());
                return new FileIdentity(0, handle, console ? FileIdentity.Kind.TERMINAL : FileIdentity.Kind.NULL_DEVICE, true);
            }
            case Kernel32.FILE_TYPE_DISK:
                return DiskFile.identity(l, handle, fd);
            case Kernel32.FILE_TYPE_PIPE:
                return new FileIdentity(0, handle, FileIdentity.Kind.PIPE, true);
            default:
                return new FileIdentity(0, handle, FileIdentity.Kind.OTHER, true);
        }
    }

    /**
     * A disk file's volume and index. Apart from the provider class, so that loading that class
     * (the service loader does, on every system) makes the verifier load no JNA type: here a
     * {@code Memory} is passed as a {@code Pointer}, which it would check.
     */
    private static final class DiskFile {
        static FileIdentity identity(Libraries l, long handle, int fd) throws DescriptorException {
            Memory info = new Memory(52); // BY_HANDLE_FILE_INFORMATION
            if (!l.kernel32().GetFileInformationByHandle(handle, info)) {
                throw win32Error(l, "GetFileInformationByHandle(fd " + fd + ")", fd);
            }
            long volume = info.getInt(28) & 0xFFFFFFFFL;
            long index = ((info.getInt(44) & 0xFFFFFFFFL) << 32) | (info.getInt(48) & 0xFFFFFFFFL);
            return new FileIdentity(volume, index, FileIdentity.Kind.FILE, true);
        }
    }

    /**
     * Compares the kernel objects behind both handles ({@code CompareObjectHandles}); where that
     * call is missing (before Windows 10 1607) it answers "same", so that stray output goes to the
     * null device rather than risk the wire.
     */
    @Override
    public boolean sameFile(int a, int b) throws DescriptorException {
        Libraries l = libs();
        long ha = osHandle(l, a, "sameFile(" + a + ", " + b + ")");
        long hb = osHandle(l, b, "sameFile(" + a + ", " + b + ")");
        if (l.kernelBase() != null) {
            try {
                return l.kernelBase().CompareObjectHandles(ha, hb);
            } catch (UnsatisfiedLinkError e) {
                // fall through to the conservative answer
            }
        }
        return true;
    }

    @Override
    public DescriptorStream open(int fd) throws DescriptorException {
        Libraries l = libs();
        return new WindowsStream(l.kernel32(), l.lastError(), fd, osHandle(l, fd, "open(" + fd + ")"));
    }

    private static long osHandle(Libraries l, int fd, String op) throws DescriptorException {
        long handle = QuietCrt.osHandle(l.ucrt(), fd);
        if (handle == -1 || handle == -2) { // not open / open but with no OS handle
            throw new DescriptorException(op, fd, WindowsErrors.EBADF, "_get_osfhandle(" + fd + "): "
                    + WindowsErrors.errno(WindowsErrors.EBADF));
        }
        return handle;
    }

    private static DescriptorException crtError(Libraries l, String op, int fd) {
        IntByReference errno = new IntByReference();
        l.ucrt()._get_errno(errno);
        return new DescriptorException(op, fd, errno.getValue(), WindowsErrors.errno(errno.getValue()));
    }

    private static DescriptorException win32Error(Libraries l, String op, int fd) {
        int code = l.lastError().getAsInt();
        return new DescriptorException(op, fd, code, WindowsErrors.win32(code));
    }
}
