/*
 * Replays a claim script, the C runtime and Win32 calls the fake's Windows model logged for one
 * claim and release, against the real ucrtbase and kernel32, loaded by name as mcpwire's providers
 * load them. At each "phase" line it writes what every standard descriptor, slot and start-up
 * handle names, as objects rather than values:
 *   wine NAME PHASE: fd0=O fd1=O fd2=O slot0=O slot1=O slot2=O start0=O start1=O start2=O child=O
 * O is stdin-wire, stdout-wire, stderr, nul, none, closed or other; "child" is what a Java child
 * started with inheritIO() gets as its stdout: the start-up value of System.out, as the JDK's
 * ProcessImpl passes it. A step the model made that fails here is reported as "step K failed".
 *
 * Calls: _dup, _dup2, _pipe, _close, _open_nul, _open_osfhandle, DuplicateHandle, CloseHandle,
 * SetStdHandle, SetHandleInformation (inheritance), SetHandleProtect (protection from close),
 * OpenThread (a handle on the replaying thread), CancelIoEx.
 * Script lines: "K CALL ARGS [fail]" or "phase NAME"; a handle argument is fd:N (the handle of
 * descriptor N now), r:K (what step K returned), s:N (the start-up value of descriptor N) or 0.
 * A step marked fail was failed by the model on purpose: it is not made, but for _close, which
 * frees its descriptor even when it fails.
 * Usage: replay SCRIPT REPORT. The report is written with Win32 calls only, so that the C
 * runtime's descriptor table is the one the script describes.
 */
#include <windows.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#define MAX_STEPS 4096

typedef intptr_t (__cdecl *get_osfhandle_t)(int);
typedef int (__cdecl *int_int_t)(int);
typedef int (__cdecl *int_int_int_t)(int, int);
typedef int (__cdecl *pipe_t)(int *, unsigned int, int);
typedef int (__cdecl *open_t)(const char *, int, ...);
typedef int (__cdecl *open_osfhandle_t)(intptr_t, int);
typedef void (__cdecl *set_app_type_t)(int);
typedef void *(__cdecl *set_handler_t)(void *);
typedef BOOL (WINAPI *compare_t)(HANDLE, HANDLE);

static get_osfhandle_t get_osfhandle;
static int_int_t crt_dup, crt_close;
static int_int_int_t crt_dup2;
static pipe_t crt_pipe;
static open_t crt_open;
static open_osfhandle_t open_osfhandle;
static compare_t compare_objects;
static HANDLE refs[3];      /* the three wires and stderr as they were at start, for naming objects */
static HANDLE start[3];     /* the start-up values: what the JVM's System.in/out/err hold */
static HANDLE results[MAX_STEPS];
static HANDLE report;
static const char *name;

static void __cdecl ignore_invalid_parameter(const wchar_t *e, const wchar_t *f, const wchar_t *file,
                                             unsigned line, uintptr_t reserved) {
}

static FARPROC need(HMODULE lib, const char *symbol) {
    FARPROC p = GetProcAddress(lib, symbol);
    if (p == NULL) {
        fprintf(stderr, "replay: %s is missing\n", symbol);
        ExitProcess(2);
    }
    return p;
}

static void say(const char *text) {
    DWORD written;
    WriteFile(report, text, (DWORD) strlen(text), &written, NULL);
}

static int same(HANDLE a, HANDLE b) {
    return a != NULL && b != NULL && compare_objects(a, b);
}

static int live(HANDLE h) {
    DWORD flags;
    return h != NULL && h != INVALID_HANDLE_VALUE && GetHandleInformation(h, &flags);
}

static const char *object(HANDLE h) {
    if (h == NULL || h == INVALID_HANDLE_VALUE || h == (HANDLE) (intptr_t) -2) {
        return "none";
    }
    if (!live(h)) {
        return "closed";
    }
    if (same(h, refs[0])) return "stdin-wire";
    if (same(h, refs[1])) return "stdout-wire";
    if (same(h, refs[2])) return "stderr";
    DWORD mode;
    if (GetFileType(h) == FILE_TYPE_CHAR && !GetConsoleMode(h, &mode)) return "nul";
    return "other";
}

static const char *descriptor(int fd) {
    intptr_t h = get_osfhandle(fd);
    return h == -1 ? "closed" : object((HANDLE) h);
}

static void phase(const char *what) {
    static const DWORD slots[3] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};
    char line[1024];
    snprintf(line, sizeof(line),
             "wine %s %s: fd0=%s fd1=%s fd2=%s slot0=%s slot1=%s slot2=%s start0=%s start1=%s start2=%s child=%s\n",
             name, what, descriptor(0), descriptor(1), descriptor(2),
             object(GetStdHandle(slots[0])), object(GetStdHandle(slots[1])), object(GetStdHandle(slots[2])),
             object(start[0]), object(start[1]), object(start[2]), object(start[1]));
    say(line);
}

static HANDLE handle_arg(const char *arg) {
    if (strncmp(arg, "fd:", 3) == 0) return (HANDLE) get_osfhandle(atoi(arg + 3));
    if (strncmp(arg, "r:", 2) == 0) return results[atoi(arg + 2)];
    if (strncmp(arg, "s:", 2) == 0) return start[atoi(arg + 2)];
    return NULL;
}

/* Makes one step; returns whether it succeeded. */
static int step(int k, const char *call, char **a, int faulted) {
    if (faulted) {
        if (strcmp(call, "_close") == 0) crt_close(atoi(a[0]));
        return 1;
    }
    if (strcmp(call, "_dup") == 0) return crt_dup(atoi(a[0])) >= 0;
    if (strcmp(call, "_dup2") == 0) return crt_dup2(atoi(a[0]), atoi(a[1])) == 0;
    if (strcmp(call, "_pipe") == 0) {
        int ends[2];
        return crt_pipe(ends, (unsigned int) atoi(a[0]), 0x8000 | 0x80) == 0; /* _O_BINARY, _O_NOINHERIT */
    }
    if (strcmp(call, "_close") == 0) return crt_close(atoi(a[0])) == 0;
    if (strcmp(call, "_open_nul") == 0) {
        int flags = (a[0][0] == 'w' ? 1 : 0) | 0x8000 | 0x80; /* _O_WRONLY, _O_BINARY, _O_NOINHERIT */
        return crt_open("NUL", flags) >= 0;
    }
    if (strcmp(call, "_open_osfhandle") == 0) return open_osfhandle((intptr_t) handle_arg(a[0]), 0x8000) >= 0;
    if (strcmp(call, "DuplicateHandle") == 0) {
        HANDLE self = GetCurrentProcess();
        return DuplicateHandle(self, handle_arg(a[0]), self, &results[k], 0, atoi(a[1]), DUPLICATE_SAME_ACCESS);
    }
    if (strcmp(call, "CloseHandle") == 0) return CloseHandle(handle_arg(a[0]));
    if (strcmp(call, "SetStdHandle") == 0) {
        static const DWORD slots[3] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};
        return SetStdHandle(slots[atoi(a[0])], handle_arg(a[1]));
    }
    if (strcmp(call, "SetHandleInformation") == 0) {
        return SetHandleInformation(handle_arg(a[0]), HANDLE_FLAG_INHERIT, atoi(a[1]) ? HANDLE_FLAG_INHERIT : 0);
    }
    if (strcmp(call, "SetHandleProtect") == 0) {
        return SetHandleInformation(handle_arg(a[0]), HANDLE_FLAG_PROTECT_FROM_CLOSE,
                                    atoi(a[1]) ? HANDLE_FLAG_PROTECT_FROM_CLOSE : 0);
    }
    if (strcmp(call, "OpenThread") == 0) { /* a handle on this thread, from the same table as every other */
        results[k] = OpenThread(THREAD_TERMINATE, FALSE, GetCurrentThreadId());
        return results[k] != NULL;
    }
    if (strcmp(call, "CreateJobObjectW") == 0) { /* the children's job: its handle takes a value of the table */
        results[k] = CreateJobObjectW(NULL, NULL);
        return results[k] != NULL;
    }
    if (strcmp(call, "CancelIoEx") == 0) {
        CancelIoEx(handle_arg(a[0]), NULL); /* nothing is pending here: the answer is not the point */
        return 1;
    }
    fprintf(stderr, "replay: unknown call %s\n", call);
    ExitProcess(2);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: replay SCRIPT REPORT\n");
        return 2;
    }
    /* The script is read whole before anything else: no descriptor of ucrtbase's is used for it. */
    HANDLE file = CreateFileA(argv[1], GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
    static char text[1 << 20];
    DWORD length = 0;
    if (file == INVALID_HANDLE_VALUE || !ReadFile(file, text, sizeof(text) - 1, &length, NULL)) {
        fprintf(stderr, "replay: cannot read %s\n", argv[1]);
        return 2;
    }
    CloseHandle(file);
    text[length] = 0;
    report = CreateFileA(argv[2], GENERIC_WRITE, FILE_SHARE_READ, NULL, CREATE_ALWAYS, 0, NULL);
    const char *slash = strrchr(argv[1], '/');
    const char *back = strrchr(argv[1], '\\');
    name = back > slash ? back + 1 : slash ? slash + 1 : argv[1];
    char *dot = strrchr((char *) name, '.');
    if (dot) *dot = 0;

    /* The JVM reads its standard handles at start-up; so does this, before any call. */
    start[0] = GetStdHandle(STD_INPUT_HANDLE);
    start[1] = GetStdHandle(STD_OUTPUT_HANDLE);
    start[2] = GetStdHandle(STD_ERROR_HANDLE);
    for (int i = 0; i < 3; i++) {
        refs[i] = NULL;
        if (live(start[i])) {
            DuplicateHandle(GetCurrentProcess(), start[i], GetCurrentProcess(), &refs[i], 0, FALSE, DUPLICATE_SAME_ACCESS);
        }
    }
    /* As in the model, the values above the start-up handles are the next ones handed out. */
    HANDLE highest = start[0] > start[1] ? start[0] : start[1];
    highest = start[2] > highest ? start[2] : highest;
    for (int i = 0; i < 256; i++) {
        HANDLE pad;
        DuplicateHandle(GetCurrentProcess(), GetCurrentProcess(), GetCurrentProcess(), &pad, 0, FALSE, DUPLICATE_SAME_ACCESS);
        if (pad > highest) {
            CloseHandle(pad);
            break;
        }
    }

    HMODULE ucrt = LoadLibraryA("ucrtbase.dll");
    HMODULE kernelbase = LoadLibraryA("kernelbase.dll");
    if (ucrt == NULL || kernelbase == NULL) {
        fprintf(stderr, "replay: ucrtbase or kernelbase cannot be loaded\n");
        return 2;
    }
    /* _crt_console_app, as java.exe is. Wine's ucrtbase keeps the slots in step whatever the app
       type, where the UCRT does so only for a console program: so only the console variant of the
       model is compared here. */
    ((set_app_type_t) need(ucrt, "_set_app_type"))(1);
    ((set_handler_t) need(ucrt, "_set_invalid_parameter_handler"))((void *) ignore_invalid_parameter);
    get_osfhandle = (get_osfhandle_t) need(ucrt, "_get_osfhandle");
    crt_dup = (int_int_t) need(ucrt, "_dup");
    crt_pipe = (pipe_t) need(ucrt, "_pipe");
    crt_close = (int_int_t) need(ucrt, "_close");
    crt_dup2 = (int_int_int_t) need(ucrt, "_dup2");
    crt_open = (open_t) need(ucrt, "_open");
    open_osfhandle = (open_osfhandle_t) need(ucrt, "_open_osfhandle");
    compare_objects = (compare_t) need(kernelbase, "CompareObjectHandles");

    int failures = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char *save = NULL;
        char *words[8] = {0};
        int n = 0;
        char copy[512];
        snprintf(copy, sizeof(copy), "%s", line);
        for (char *w = strtok_r(copy, " \r", &save); w != NULL && n < 8; w = strtok_r(NULL, " \r", &save)) {
            words[n++] = w;
        }
        if (n == 0 || words[0][0] == '#') continue;
        if (strcmp(words[0], "phase") == 0) {
            phase(words[1]);
            continue;
        }
        int k = atoi(words[0]);
        int faulted = strcmp(words[n - 1], "fail") == 0;
        if (k <= 0 || k >= MAX_STEPS || n < 2) {
            fprintf(stderr, "replay: bad line: %s\n", line);
            return 2;
        }
        if (!step(k, words[1], words + 2, faulted)) {
            char out[600];
            snprintf(out, sizeof(out), "wine %s step %d failed: %s (GetLastError %lu)\n", name, k, line, GetLastError());
            say(out);
            failures++;
        }
    }
    CloseHandle(report);
    return failures > 0 ? 1 : 0;
}
