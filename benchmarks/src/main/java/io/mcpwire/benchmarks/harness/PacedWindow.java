package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One paced run at one rate for {@link OpenLoop}: calls sent on a fixed schedule, up to
 * {@value #IN_FLIGHT} in flight. A call's latency runs from when it was due, not from when the
 * in-flight bound let it go, so that a server that holds the client back is charged for the wait
 * (no coordinated omission); when the sender itself woke late for a call, the call starts at the
 * wake-up, so that the client's timer is not charged to the server. Calls after the lead-in go
 * into an HdrHistogram (ns, three significant digits).
 */
final class PacedWindow {
    static final int IN_FLIGHT = 16;
    /** How far the sender may fall behind its schedule and still count the rate as kept. */
    private static final long BEHIND_NANOS = 200_000_000L;

    private final PeerProcess proc;
    private final Answers answers;
    private final Requests.EchoCall call;
    private final long firstId;
    private final int rate;
    private final int count;
    private final int firstMeasured;
    private final AtomicLongArray start;
    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    private final AnswerLog log = new AnswerLog();
    /** Written by the reader only; read by the sender once the in-flight permits are back. */
    private int answered;
    /** The calls sent: fewer than {@link #count} when the server ended or the rate was out of reach. */
    private int sent;
    private Tally tally;

    PacedWindow(PeerProcess proc, Answers answers, Requests.EchoCall call, long firstId, int rate, double seconds, double leadIn) {
        this.proc = proc;
        this.answers = answers;
        this.call = call;
        this.firstId = firstId;
        this.rate = rate;
        this.count = (int) (rate * seconds);
        this.firstMeasured = (int) (rate * leadIn);
        this.start = new AtomicLongArray(count);
    }

    int count() {
        return count;
    }

    double latencyNanos(double percentile) {
        return histogram.getValueAtPercentile(percentile);
    }

    /** Sends the window's calls on schedule and waits for their answers; the failure, if the rate was not kept. */
    Optional<Failure> run() throws IOException, InterruptedException {
        System.gc(); // the client's own collections stay out of the window as far as they can
        answers.current = this;
        OutputStream in = proc.input();
        double interval = 1e9 / rate;
        long t0 = System.nanoTime() + 1_000_000;
        long lastSend = t0;
        boolean stalled = false;
        for (int i = 0; i < count && !answers.ended; i++) {
            long due = t0 + (long) (i * interval);
            long now = System.nanoTime();
            if (now < due) {
                try {
                    in.flush(); // what is due goes out before the sender sleeps
                } catch (IOException e) {
                    break;
                }
                LockSupport.parkNanos(due - now);
                start.set(i, System.nanoTime());
            } else {
                start.set(i, due);
            }
            try {
                if (!inFlight.tryAcquire()) {
                    in.flush(); // the calls in flight must reach the server before the sender waits for their answers
                    if (!inFlight.tryAcquire(PeerProcess.STALL_SECONDS, TimeUnit.SECONDS)) {
                        stalled = true;
                        break;
                    }
                }
                in.write(call.head());
                in.write(Requests.ascii(Long.toString(firstId + i)));
                in.write(call.tail());
            } catch (IOException e) {
                break; // the server has gone: the reader sees its end
            }
            sent++;
            lastSend = System.nanoTime();
            if (lastSend - due > 10 * BEHIND_NANOS) {
                break; // far behind: the rate is out of reach, and going on would tell nothing more
            }
        }
        try {
            in.flush();
        } catch (IOException e) {
            // the server has gone
        }
        if (!stalled && !answers.ended) {
            // Every answer in: all the permits back (the reader hands out more than enough at the end of output).
            stalled = !inFlight.tryAcquire(IN_FLIGHT, PeerProcess.STALL_SECONDS, TimeUnit.SECONDS);
        }
        long behind = lastSend - (t0 + (long) (Math.max(0, sent - 1) * interval));
        if (answers.ended || stalled) {
            return Optional.of(proc.stalled() || stalled ? new Failure.Stalled(answered, PeerProcess.STALL_SECONDS)
                    : new Failure.Crashed(answered));
        }
        if (sent < count || behind > BEHIND_NANOS) {
            return Optional.of(new Failure.Saturated(sent / ((lastSend - t0) / 1e9)));
        }
        if (!tally().allRight(count)) {
            return Optional.of(new Failure.WrongAnswers(tally().notRight() + tally().missing()));
        }
        return Optional.empty();
    }

    /** Every answer of the window, each checked against its request; a call never sent is not missing. */
    Tally tally() {
        if (tally == null) {
            tally = Tally.of(log, firstId, sent, call.expected());
        }
        return tally;
    }

    private void answer(byte[] line, int offset, int length, long now) {
        log.line(line, offset, length);
        long id = PeerProcess.idIn(line, offset, offset + length);
        int index = (int) (id - firstId);
        if (id < 0 || index < 0 || index >= count) {
            return; // checked as wrong by the tally
        }
        answered++;
        if (index >= firstMeasured) {
            histogram.recordValue(Math.max(1, now - start.get(index)));
        }
        inFlight.release();
    }

    /** Starts the one reader of {@code proc}'s answers, which hands each to the window that is running. */
    static Answers readAnswers(PeerProcess proc) {
        Answers a = new Answers();
        Thread reader = new Thread(() -> {
            try {
                while (proc.readLine((b, off, len) -> a.current.answer(b, off, len, System.nanoTime()))) {
                    // each line handed over
                }
            } catch (IOException e) {
                // the server has gone
            }
            a.ended = true;
            PacedWindow w = a.current;
            if (w != null) {
                w.inFlight.release(2 * IN_FLIGHT); // the sender waits no longer, whatever it holds
            }
        }, "bench-open-loop-reader");
        reader.setDaemon(true);
        reader.start();
        return a;
    }

    /** The reader's side: the window answers go to, and whether the output has ended. */
    static final class Answers {
        private volatile PacedWindow current;
        private volatile boolean ended;
    }
}
