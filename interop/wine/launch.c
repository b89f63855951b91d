/*
 * Starts the replayer with pipes on its standard handles, the way a host starts an MCP server,
 * in one of the layouts the claim meets:
 *   apart    stdin, stdout and stderr on three pipes
 *   same     stderr the very handle value of stdout (as redirectErrorStream(true) passes it)
 *   dup      stderr another handle on the stdout pipe (2>&1 through a second handle)
 *   nostdin  no stdin at all, stdout and stderr apart
 * Usage: launch LAYOUT REPLAYER SCRIPT REPORT. Exits with the replayer's exit code.
 */
#include <windows.h>
#include <stdio.h>
#include <string.h>

static HANDLE inheritable_pipe(HANDLE *read_end, HANDLE *write_end) {
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, TRUE};
    if (!CreatePipe(read_end, write_end, &sa, 0)) {
        fprintf(stderr, "launch: CreatePipe failed: %lu\n", GetLastError());
        ExitProcess(2);
    }
    return *read_end;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: launch apart|same|dup|nostdin REPLAYER SCRIPT REPORT\n");
        return 2;
    }
    const char *layout = argv[1];
    HANDLE in_r, in_w, out_r, out_w, err_r, err_w;
    inheritable_pipe(&in_r, &in_w);
    inheritable_pipe(&out_r, &out_w);
    inheritable_pipe(&err_r, &err_w);
    /* The parent's own ends are not inherited. */
    SetHandleInformation(in_w, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(out_r, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(err_r, HANDLE_FLAG_INHERIT, 0);

    STARTUPINFOA si;
    memset(&si, 0, sizeof(si));
    si.cb = sizeof(si);
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = in_r;
    si.hStdOutput = out_w;
    si.hStdError = err_w;
    if (strcmp(layout, "same") == 0) {
        si.hStdError = out_w;
    } else if (strcmp(layout, "dup") == 0) {
        HANDLE second;
        DuplicateHandle(GetCurrentProcess(), out_w, GetCurrentProcess(), &second, 0, TRUE, DUPLICATE_SAME_ACCESS);
        si.hStdError = second;
    } else if (strcmp(layout, "nostdin") == 0) {
        si.hStdInput = NULL;
    } else if (strcmp(layout, "apart") != 0) {
        fprintf(stderr, "launch: unknown layout %s\n", layout);
        return 2;
    }

    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "\"%s\" \"%s\" \"%s\"", argv[2], argv[3], argv[4]);
    PROCESS_INFORMATION pi;
    if (!CreateProcessA(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
        fprintf(stderr, "launch: CreateProcess failed: %lu\n", GetLastError());
        return 2;
    }
    WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 2;
    GetExitCodeProcess(pi.hProcess, &code);
    return (int) code;
}
