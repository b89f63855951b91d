package io.mcpwire.platform.posix;

import com.sun.jna.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;

/**
 * Initializes JNA with its native library ({@code libjnidispatch}) from a per-user cache, instead
 * of the copy JNA unpacks from its jar to a temporary file, and deletes, on every start (some
 * 20 ms of each claim's start-up on JDK 17).
 *
 * <p>The cached copy sits in {@code $XDG_CACHE_HOME/mcpwire} or {@code ~/.cache/mcpwire}
 * ({@code ~/Library/Caches/mcpwire} on macOS), in a directory named after the jar entry's
 * CRC-32 and size, so that JNA versions never share one. It is used only when the directory and
 * the file belong to the user running the JVM and nobody else may write them, and when the
 * file's size and CRC-32 are the jar entry's, read from the jar's directory, not unpacked: another
 * user cannot plant a library there, and a stale or damaged copy is replaced. Anything else
 * (a jar that is not a file, a user-set {@code jna.boot.library.path} or
 * {@code jna.boot.library.name}, a cache that cannot be written) leaves JNA to its own way.
 */
final class JnaDispatchCache {
    private static final System.Logger LOG = System.getLogger(JnaDispatchCache.class.getName());
    private static final String BOOT_PATH = "jna.boot.library.path";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private JnaDispatchCache() {
    }

    /** Initializes JNA's {@code Native}, from the cached copy of its native library where one is usable. */
    static void initializeJna() throws ClassNotFoundException {
        boolean userChose = System.getProperty(BOOT_PATH) != null || System.getProperty("jna.boot.library.name") != null;
        Optional<Path> base = userChose ? Optional.empty() : cacheBase();
        Optional<Path> directory = base.isPresent() ? cachedCopy(base.get()) : Optional.empty();
        if (directory.isEmpty()) {
            initializeNative();
            return;
        }
        // JNA reads the property once, while Native initializes; it is cleared after, so that a
        // JNA of another version in another class loader does not take this copy for its own.
        System.setProperty(BOOT_PATH, directory.get().toString());
        try {
            initializeNative();
        } finally {
            System.clearProperty(BOOT_PATH);
        }
    }

    private static void initializeNative() throws ClassNotFoundException {
        Class.forName("com.sun.jna.Native", true, Platform.class.getClassLoader());
    }

    /** The directory under {@code base} holding a verified copy of the jar's native library, made there if need be. */
    static Optional<Path> cachedCopy(Path base) {
        String name = libraryName();
        URL resource = Platform.class.getResource("/com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + name);
        if (resource == null) {
            return Optional.empty();
        }
        try {
            URLConnection connection = resource.openConnection();
            if (!(connection instanceof JarURLConnection jar)) {
                return Optional.empty(); // not in a jar: JNA loads it where it is
            }
            jar.setUseCaches(false); // a jar file of its own, closed below, not one held for the JVM's life
            try (JarFile file = jar.getJarFile()) {
                return cachedCopy(file, file.getJarEntry(jar.getEntryName()), base, name);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "JNA''s native library is unpacked as usual: the cache failed ({0})", e.toString());
            return Optional.empty();
        }
    }

    private static Optional<Path> cachedCopy(JarFile jar, JarEntry entry, Path base, String name) throws IOException {
        if (entry == null || entry.getCrc() < 0 || entry.getSize() < 0) {
            return Optional.empty();
        }
        Path directory = base.resolve("jna-" + Long.toHexString(entry.getCrc()) + "-" + entry.getSize());
        Path library = directory.resolve(name);
        Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        if (!ownedAndPrivate(base) || !ownedAndPrivate(directory)) {
            LOG.log(Level.DEBUG, "JNA''s native library is unpacked as usual: {0} is not the user''s alone", directory);
            return Optional.empty();
        }
        if (!matches(library, entry)) {
            unpack(jar, entry, directory, library);
        }
        return Optional.of(directory);
    }

    /** The file name JNA looks for in {@code jna.boot.library.path}. */
    static String libraryName() {
        return System.mapLibraryName("jnidispatch").replace(".dylib", ".jnilib");
    }

    /** {@code $XDG_CACHE_HOME/mcpwire}, {@code ~/.cache/mcpwire} or {@code ~/Library/Caches/mcpwire}. */
    private static Optional<Path> cacheBase() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !Platform.isMac() && Path.of(xdg).isAbsolute()) {
            return Optional.of(Path.of(xdg, "mcpwire"));
        }
        String home = System.getProperty("user.home");
        if (home == null || home.isEmpty() || home.equals("?")) {
            return Optional.empty();
        }
        return Optional.of(Platform.isMac() ? Path.of(home, "Library", "Caches", "mcpwire") : Path.of(home, ".cache", "mcpwire"));
    }

    /** Whether {@code path} (not followed if a link) is the running user's and nobody else may write it. */
    private static boolean ownedAndPrivate(Path path) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> permissions = attributes.permissions();
        return !attributes.isSymbolicLink()
                && attributes.owner().getName().equals(System.getProperty("user.name"))
                && !permissions.contains(PosixFilePermission.GROUP_WRITE)
                && !permissions.contains(PosixFilePermission.OTHERS_WRITE);
    }

    /** Whether {@code library} is a private file of the user's with the entry's size and CRC-32. */
    private static boolean matches(Path library, JarEntry entry) throws IOException {
        if (!Files.isRegularFile(library, LinkOption.NOFOLLOW_LINKS) || !ownedAndPrivate(library)
                || Files.size(library) != entry.getSize()) {
            return false;
        }
        CRC32 crc = new CRC32();
        // streamed: the whole library read into one array stays resident in a fresh heap
        try (InputStream in = new CheckedInputStream(Files.newInputStream(library), crc)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return crc.getValue() == entry.getCrc();
    }

    /** Unpacks the entry next to its place, checks it, and moves it there in one step. */
    private static void unpack(JarFile jar, JarEntry entry, Path directory, Path library) throws IOException {
        Path part = Files.createTempFile(directory, "jnidispatch", ".part", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            try (InputStream in = jar.getInputStream(entry); OutputStream out = Files.newOutputStream(part)) {
                in.transferTo(out);
            }
            if (!matches(part, entry)) {
                throw new IOException("the unpacked copy differs from the jar's entry");
            }
            Files.move(part, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(part);
        }
    }
}
