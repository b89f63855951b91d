package io.mcpwire.platform;

import java.io.IOException;

/**
 * A descriptor operation that failed, naming the operation, the descriptor and the OS error.
 * Its message reads, for example, {@code dup2(5, 0) failed on fd 0: EBADF (Bad file descriptor)}.
 */
public class DescriptorException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final int descriptor;
    private final int errorCode;
    private final String errorText;

    /**
     * Creates the exception.
     *
     * @param operation  the call with its arguments, for example {@code dup2(5, 0)}
     * @param descriptor the descriptor the operation acted on
     * @param errorCode  the OS error ({@code errno}, {@code GetLastError()}), or 0 when none
     * @param errorText  the error's name and text
     */
    public DescriptorException(String operation, int descriptor, int errorCode, String errorText) {
        super(operation + " failed" + (descriptor >= 0 ? " on fd " + descriptor : "") + ": " + errorText
                + (errorCode != 0 ? " [error " + errorCode + "]" : ""));
        this.operation = operation;
        this.descriptor = descriptor;
        this.errorCode = errorCode;
        this.errorText = errorText;
    }

    /** The call with its arguments. */
    public String operation() {
        return operation;
    }

    /** The descriptor the operation acted on. */
    public int descriptor() {
        return descriptor;
    }

    /** The OS error code, or 0 when none. */
    public int errorCode() {
        return errorCode;
    }

    /** The OS error's name and text. */
    public String errorText() {
        return errorText;
    }
}
