package io.mcpwire.check;

import java.io.IOException;
import java.io.PrintStream;

/**
 * The command line: {@code java -jar mcpwire-check.jar [options] -- COMMAND [ARGS...]}. Exits 0
 * when the server's wire is clean and it ends well, 1 when anything is wrong, 2 when the server
 * could not be run (or the command line is wrong).
 */
public final class Check {
    private Check() {
    }

    /** Runs a check and exits with its status. */
    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a check, printing the report to {@code out}; the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        if (Options.wantsHelp(args)) {
            out.print(Options.HELP);
            out.flush();
            return 0;
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("mcpwire-check: " + e.getMessage());
            err.println(Options.USAGE);
            return 2;
        }
        Report report;
        try {
            report = WireCheck.run(options);
        } catch (IOException e) {
            err.println("mcpwire-check: the server could not be started: " + e.getMessage());
            return 2;
        }
        out.print(options.json() ? report.json() : report.text());
        out.flush();
        return report.clean() ? 0 : 1;
    }
}
