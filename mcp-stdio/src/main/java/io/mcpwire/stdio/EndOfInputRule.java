package io.mcpwire.stdio;

import static io.mcpwire.stdio.claim.StdioLog.LOG;

import io.mcpwire.stdio.transport.Lifecycle;
import io.mcpwire.stdio.transport.PendingRequests;
import io.mcpwire.stdio.transport.Progress;
import io.mcpwire.stdio.transport.WireInput;
import io.mcpwire.transport.TransportClosed;
import java.lang.System.Logger.Level;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The shutdown rule: when the client closed its end, or the host that started the server exited
 * though stdin stays open, every line already received is dispatched and every request answered
 * while anything moves; after a whole grace period without progress, what is owed is dropped and
 * counted. One grace period in all: when it ran out here, the close does not wait for the queue
 * again. A {@code close()} meanwhile ends the wait.
 *
 * @param dispatched counted down when the dispatcher has dispatched its last line
 */
record EndOfInputRule(Lifecycle lifecycle, Progress progress, PendingRequests pending, CountDownLatch dispatched,
                      WireInput input, TransportShutdown shutdown, long graceNanos) {

    /** The wire ended: on the reader thread. */
    void wireEnded() {
        end(TransportClosed.Reason.END_OF_INPUT);
    }

    /** The host exited, stdin perhaps still open: on the watching thread. */
    void hostExited() {
        if (lifecycle.isClosing()) {
            return;
        }
        LOG.log(Level.INFO, "the process that started this server exited; ending the session as at end of input");
        input.end(); // what was read is dispatched, then the dispatcher sees the end
        end(TransportClosed.Reason.HOST_EXITED);
    }

    private void end(TransportClosed.Reason reason) {
        boolean answered = progress.await(
                () -> lifecycle.isClosing() || (dispatched.getCount() == 0 && pending.count() == 0), graceNanos);
        if (!answered) {
            LOG.log(Level.WARNING, "end of input: {0} request(s) still unanswered after {1} ms without progress",
                    pending.count(), TimeUnit.NANOSECONDS.toMillis(graceNanos));
        }
        shutdown.run(reason, null, !answered);
    }
}
