package io.mcpwire.benchmarks.peers;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Where {@link TunedEchoServer}'s one generator writes: a buffer of answers that reaches fd 1 only
 * when handed over, by the parsing thread itself ({@link #direct}) or by a writer thread of its own
 * while the parser goes on ({@link #withWriterThread}). The generator's {@code flush} stops here.
 */
abstract class AnswerSink extends OutputStream {
    protected byte[] buffer = new byte[1 << 17];
    protected int count;

    /** The answers are written by the thread that hands them over. */
    static AnswerSink direct(OutputStream fd1) {
        return new AnswerSink() {
            @Override
            void handOver() throws IOException {
                if (count > 0) {
                    fd1.write(buffer, 0, count);
                    count = 0;
                }
            }

            @Override
            void finish() throws IOException {
                handOver();
            }
        };
    }

    /** The answers are written by a writer thread; two buffers go back and forth between it and the parser. */
    static AnswerSink withWriterThread(OutputStream fd1) {
        return new Swapping(fd1);
    }

    @Override
    public void write(int b) {
        if (count == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (count + len > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, count + len));
        }
        System.arraycopy(b, off, buffer, count, len);
        count += len;
    }

    @Override
    public void flush() {
        // the generator's flush: the bytes stay here until handed over
    }

    int size() {
        return count;
    }

    /** Sends what is buffered on its way to fd 1. */
    abstract void handOver() throws IOException, InterruptedException;

    /** Hands over the rest and waits until it is written. */
    abstract void finish() throws IOException, InterruptedException;

    /** Two buffers: the parser fills one while the writer thread writes the other. */
    private static final class Swapping extends AnswerSink {
        private static final byte[] END = new byte[0];
        private final BlockingQueue<byte[]> full = new ArrayBlockingQueue<>(1);
        private final BlockingQueue<byte[]> spare = new ArrayBlockingQueue<>(1);
        private final BlockingQueue<Integer> lengths = new ArrayBlockingQueue<>(1);
        private final Thread writer;

        Swapping(OutputStream fd1) {
            spare.add(new byte[1 << 17]);
            writer = new Thread(() -> {
                try {
                    for (byte[] b = full.take(); b != END; b = full.take()) {
                        fd1.write(b, 0, lengths.take());
                        spare.put(b);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "line-echo-writer");
            writer.start();
        }

        @Override
        void handOver() throws InterruptedException {
            if (count > 0) {
                byte[] next = spare.take(); // waits while the writer still writes the other buffer
                lengths.put(count);
                full.put(buffer);
                buffer = next;
                count = 0;
            }
        }

        @Override
        void finish() throws InterruptedException {
            handOver();
            full.put(END);
            writer.join();
        }
    }
}
