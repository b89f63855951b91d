package io.mcpwire.benchmarks.harness;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A text table whose columns are as wide as their widest cell: the first left-aligned, the rest right-aligned. */
final class Table {
    private final List<List<String>> rows = new ArrayList<>();

    Table row(List<String> cells) {
        rows.add(cells);
        return this;
    }

    void print(PrintStream out) {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] width = new int[columns];
        for (List<String> r : rows) {
            for (int c = 0; c < r.size(); c++) {
                width[c] = Math.max(width[c], r.get(c).length());
            }
        }
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < r.size(); c++) {
                line.append(c == 0 ? Format.left(r.get(c), width[c]) : "  " + Format.right(r.get(c), width[c]));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
