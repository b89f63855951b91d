package io.mcpwire.platform.test;

import io.mcpwire.platform.Access;

/**
 * One platform call that a {@link FakeProcess} received, as its call log records it.
 *
 * @param index   the call's position in the log, from 1
 * @param op      the operation
 * @param fd      the descriptor acted on ({@code dup2}: the target; {@code openNullDevice}: -1; a
 *                Win32 call on a handle: the descriptor that owns it, or -1; {@code SetStdHandle}: the slot)
 * @param source  for {@code dup2}, the source descriptor; else -1
 * @param access  for {@code openNullDevice}, the access; else null
 */
public record Call(int index, Op op, int fd, int source, Access access) {

    /** The call as code would read, for example {@code dup2(4, 0)}. */
    public String describe() {
        return switch (op) {
            case DUP_ABOVE_STANDARD -> "duplicateAboveStandard(" + fd + ")";
            case DUP -> "duplicate(" + fd + ")";
            case DUP2 -> "dup2(" + source + ", " + fd + ")";
            case OPEN_NULL -> "openNullDevice(" + access + ")";
            case OPEN_APPEND -> "openAppend(...)";
            case PIPE -> "pipe()";
            case ORIGIN -> "standardOrigin(" + fd + ")";
            case CLOSE -> "close(" + fd + ")";
            case REBIND -> "rebindStandardHandle(" + fd + ")";
            case IDENTITY -> "identity(" + fd + ")";
            case OPEN_STREAM -> "open(" + fd + ")";
            case READ -> "read(" + fd + ")";
            case WRITE -> "write(" + fd + ")";
            case OPEN_OSFHANDLE -> "_open_osfhandle(...)";
            case DUPLICATE_HANDLE -> "DuplicateHandle(" + handleOf() + ")";
            case SET_HANDLE_INFORMATION -> "SetHandleInformation(" + handleOf() + ")";
            case SET_STD_HANDLE -> "SetStdHandle(" + fd + ")";
            case GET_FILE_TYPE -> "GetFileType(" + handleOf() + ")";
            case FILE_ID -> "GetFileInformationByHandle(" + handleOf() + ")";
            case JOB_OBJECT -> "the children's job object";
        };
    }

    private String handleOf() {
        return fd >= 0 ? "handle of fd " + fd : "a handle of no descriptor";
    }

    @Override
    public String toString() {
        return "#" + index + " " + describe();
    }
}
