package io.mcpwire.platform.rules.windows;

import io.mcpwire.platform.DescriptorException;
import java.util.Optional;

/**
 * The job object that ties the processes this one starts to its life: created without a name,
 * its handle not inherited, {@code JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE} its one limit, this process
 * assigned to it. The handle is never closed: the kernel closes it when the process ends, however
 * it ends, and that ends every process in the job. Made once per process: a process cannot leave a
 * job, so a second tie would only nest another.
 */
final class ChildrenJob {
    /** The job's handle, once made. */
    private Optional<Long> job = Optional.empty();

    /** Makes the job unless it is made; a failed step closes what it made and names the call. */
    synchronized boolean tie(Win32 w) throws DescriptorException {
        if (job.isPresent()) {
            return true;
        }
        long handle = w.createJobObject();
        if (handle == 0) {
            throw WindowsPlatform.win32Error(w, "CreateJobObjectW", -1);
        }
        if (!w.setJobLimits(handle)) {
            throw closedAfter(w, handle, "SetInformationJobObject(KILL_ON_JOB_CLOSE|BREAKAWAY_OK)");
        }
        if (!w.assignCurrentProcess(handle)) {
            throw closedAfter(w, handle, "AssignProcessToJobObject");
        }
        job = Optional.of(handle);
        return true;
    }

    /** The error of the call just failed, once the job it was made on is closed: nothing is left behind. */
    private static DescriptorException closedAfter(Win32 w, long handle, String call) {
        DescriptorException e = WindowsPlatform.win32Error(w, call, -1);
        w.closeHandle(handle);
        return e;
    }
}
