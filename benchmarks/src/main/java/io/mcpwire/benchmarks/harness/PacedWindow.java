package io.mcpwire.benchmarks.harness;

import io.mcpwire.benchmarks.harness.Sample.Failure;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One paced run at one rate for {@link OpenLoop}: calls sent on a fixed schedule, up to
 * {@value #IN_FLIGHT} in flight. A call's latency runs from its due time on the schedule, always:
 * never from when the sender woke up or the in-flight bound let it go, which would leave out of the
 * latency whatever kept the sender back (coordinated omission). The sender's own lateness, each
 * call's flush to the pipe after its due time, is kept apart, so that a reader can tell a late
 * client from a slow server. Calls after the lead-in go into HdrHistograms (ns, three significant
 * digits).
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
    private final double interval;
    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    /** Each measured call's flush to the pipe after its due time; the sender's only. */
    private final Histogram lateness = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    /** When call 0 is due; set before the first call goes out, read by the reader. */
    private volatile long t0;
    /** The calls written and flushed to the pipe; the sender's only. */
    private int flushed;
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
        this.interval = 1e9 / rate;
    }

    int count() {
        return count;
    }

    double latencyNanos(double percentile) {
        return histogram.getValueAtPercentile(percentile);
    }

    /** The sender's lateness at {@code percentile} (100: the most late), once {@link #run} has returned. */
    double senderLateNanos(double percentile) {
        return percentile == 100 ? lateness.getMaxValue() : lateness.getValueAtPercentile(percentile);
    }

    /** When call {@code i} is due: the time its latency runs from. */
    private long due(int i) {
        return t0 + (long) (i * interval);
    }

    /** Flushes what was written, and takes the lateness of each call that has now reached the pipe. */
    private void flush(OutputStream in) throws IOException {
        in.flush();
        long now = System.nanoTime();
        for (; flushed < sent; flushed++) {
            if (flushed >= firstMeasured) {
                lateness.recordValue(Math.max(0, now - due(flushed)));
            }
        }
    }

    /** Sends the window's calls on schedule and waits for their answers; the failure, if the rate was not kept. */
    Optional<Failure> run() throws IOException, InterruptedException {
        System.gc(); // the client's own collections stay out of the window as far as they can
        answers.current = this;
        OutputStream in = proc.input();
        t0 = System.nanoTime() + 1_000_000;
        long lastSend = t0;
        boolean stalled = false;
        for (int i = 0; i < count && !answers.ended; i++) {
            long due = due(i);
            long now = System.nanoTime();
            try {
                if (now < due) {
                    flush(in); // what is due goes out before the sender sleeps
                    LockSupport.parkNanos(due - now);
                }
                if (!inFlight.tryAcquire()) {
                    flush(in); // the calls in flight must reach the server before the sender waits for their answers
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
            flush(in);
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
            histogram.recordValue(Math.max(1, now - due(index)));
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
