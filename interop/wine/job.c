/* The children's job on a real kernel32: the calls as the Windows provider makes them (its layout
 * constants checked against the SDK's headers), then the server killed with TerminateProcess.
 *   job.exe MODE          the check: starts "job.exe server MODE", reads its child's pid, kills the
 *                         server, and expects the child to have ended with it (tied) or not
 *                         (untied: the check can fail; breakaway: a child that detached itself)
 *   job.exe server MODE   ties its children unless untied, starts "job.exe sleep" (with
 *                         CREATE_BREAKAWAY_FROM_JOB for breakaway), says the child's pid, waits
 *   job.exe sleep         sleeps ten minutes */
#include <windows.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The provider's constants (Win32.java), checked against the SDK's. */
#define JOB_OBJECT_EXTENDED_LIMIT_INFORMATION 9
#define JOB_EXTENDED_LIMITS_BYTES 144
#define JOB_LIMIT_FLAGS_OFFSET 16
#define CHILDREN_JOB_LIMITS (0x2000 | 0x800)
_Static_assert(sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION) == JOB_EXTENDED_LIMITS_BYTES, "size");
_Static_assert(offsetof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION, BasicLimitInformation.LimitFlags) == JOB_LIMIT_FLAGS_OFFSET, "offset");
_Static_assert(JobObjectExtendedLimitInformation == JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, "class");
_Static_assert((JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_BREAKAWAY_OK) == CHILDREN_JOB_LIMITS, "flags");

static PROCESS_INFORMATION start(const char *self, const char *args, HANDLE out, DWORD flags) {
    char line[MAX_PATH + 64];
    snprintf(line, sizeof line, "\"%s\" %s", self, args);
    STARTUPINFOA si = {sizeof si};
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    si.hStdOutput = out;
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    PROCESS_INFORMATION pi;
    if (!CreateProcessA(NULL, line, NULL, NULL, TRUE, flags, NULL, NULL, &si, &pi)) {
        fprintf(stderr, "job: CreateProcess(%s) failed: %lu\n", args, GetLastError());
        exit(2);
    }
    return pi;
}

static int server(const char *self, const char *mode) {
    if (strcmp(mode, "untied") != 0) {
        HANDLE job = CreateJobObjectW(NULL, NULL);
        unsigned char limits[JOB_EXTENDED_LIMITS_BYTES] = {0};
        *(DWORD *) (limits + JOB_LIMIT_FLAGS_OFFSET) = CHILDREN_JOB_LIMITS;
        if (!job || !SetInformationJobObject(job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, limits, sizeof limits)
                || !AssignProcessToJobObject(job, GetCurrentProcess())) {
            fprintf(stderr, "job: tying failed: %lu\n", GetLastError());
            return 2;
        }
    }
    DWORD flags = strcmp(mode, "breakaway") == 0 ? CREATE_BREAKAWAY_FROM_JOB : 0;
    PROCESS_INFORMATION child = start(self, "sleep", GetStdHandle(STD_ERROR_HANDLE), flags);
    printf("%lu\n", child.dwProcessId);
    fflush(stdout);
    Sleep(600000);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: job.exe tied|untied|breakaway\n");
        return 2;
    }
    if (strcmp(argv[1], "sleep") == 0) {
        Sleep(600000);
        return 0;
    }
    if (strcmp(argv[1], "server") == 0 && argc > 2) {
        return server(argv[0], argv[2]);
    }
    const char *mode = argv[1];
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    HANDLE r, w;
    if (!CreatePipe(&r, &w, &sa, 0)) {
        return 2;
    }
    SetHandleInformation(r, HANDLE_FLAG_INHERIT, 0);
    char args[64];
    snprintf(args, sizeof args, "server %s", mode);
    PROCESS_INFORMATION srv = start(argv[0], args, w, 0);
    CloseHandle(w);
    char buf[32] = {0};
    DWORD n = 0;
    if (!ReadFile(r, buf, sizeof buf - 1, &n, NULL) || n == 0) {
        fprintf(stderr, "job: the server said no pid\n");
        return 2;
    }
    HANDLE child = OpenProcess(SYNCHRONIZE | PROCESS_TERMINATE, FALSE, strtoul(buf, NULL, 10));
    if (!child) {
        fprintf(stderr, "job: OpenProcess(%s) failed: %lu\n", buf, GetLastError());
        return 2;
    }
    if (WaitForSingleObject(child, 500) != WAIT_TIMEOUT) {
        fprintf(stderr, "job: the child ended before the server was killed\n");
        return 2;
    }
    TerminateProcess(srv.hProcess, 1);
    int ended = WaitForSingleObject(child, 3000) == WAIT_OBJECT_0;
    printf("wine job (%s): the server killed, its child %s\n", mode, ended ? "ended with it" : "still runs");
    if (!ended) {
        TerminateProcess(child, 1);
    }
    return ended == (strcmp(mode, "tied") == 0) ? 0 : 1;
}
