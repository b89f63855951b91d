package io.mcpwire.platform.rules.windows;

/**
 * The layout of {@code BY_HANDLE_FILE_INFORMATION}, which {@code GetFileInformationByHandle}
 * fills: written once, here, for every binding.
 */
public final class FileInformation {
    /** The structure's size in bytes. */
    public static final int SIZE = 52;
    private static final int VOLUME_SERIAL_NUMBER = 28;
    private static final int FILE_INDEX_HIGH = 44;
    private static final int FILE_INDEX_LOW = 48;

    /** Reads the {@code DWORD} at an offset of the filled structure, as a binding's memory does. */
    @FunctionalInterface
    public interface DwordAt {
        /** The {@code DWORD} at {@code offset}. */
        int at(long offset);
    }

    private FileInformation() {
    }

    /** {volume serial number, file index} of a filled structure, as {@link Win32#fileId} answers. */
    public static long[] id(DwordAt info) {
        long volume = info.at(VOLUME_SERIAL_NUMBER) & 0xFFFFFFFFL;
        long index = ((info.at(FILE_INDEX_HIGH) & 0xFFFFFFFFL) << 32) | (info.at(FILE_INDEX_LOW) & 0xFFFFFFFFL);
        return new long[] {volume, index};
    }
}
