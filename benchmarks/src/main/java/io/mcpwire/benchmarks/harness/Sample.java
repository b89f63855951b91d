package io.mcpwire.benchmarks.harness;

import java.util.Locale;

/** One round's figure of one metric for one peer: a value, or the failure that left none. */
sealed interface Sample {

    /** A figure from a run that completed with every answer right. */
    record Value(double value) implements Sample {
    }

    /** A run that gave no figure, and why. */
    record Failed(Failure failure) implements Sample {
    }

    /** Why a run gave no figure. Never a rate: a run that failed is not measured at the rate it kept until then. */
    sealed interface Failure {
        /** What a table's cell says. */
        String cell();

        /** The server's output ended before every request was answered. */
        record Crashed(long answered) implements Failure {
            @Override
            public String cell() {
                return String.format(Locale.ROOT, "crashed after %,d", answered);
            }
        }

        /** No answer came for {@code seconds} while some were owed; the server was killed. */
        record Stalled(long answered, int seconds) implements Failure {
            @Override
            public String cell() {
                return String.format(Locale.ROOT, "stalled after %,d", answered);
            }
        }

        /** Every request was answered, but not every answer was right (see the tally). */
        record WrongAnswers(long notRight) implements Failure {
            @Override
            public String cell() {
                return String.format(Locale.ROOT, "%,d wrong", notRight);
            }
        }

        /** The open loop could not keep its rate: the server answers fewer calls a second than were sent. */
        record Saturated(double achievedPerSecond) implements Failure {
            @Override
            public String cell() {
                return String.format(Locale.ROOT, "saturated at %,.0f/s", achievedPerSecond);
            }
        }

        /** The session did not open, or a measurement could not be taken. */
        record NoFigure(String why) implements Failure {
            @Override
            public String cell() {
                return why;
            }
        }
    }
}
