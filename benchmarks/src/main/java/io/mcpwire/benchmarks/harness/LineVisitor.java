package io.mcpwire.benchmarks.harness;

/** Sees one line of a server's output, in a buffer it must not keep. */
interface LineVisitor {
    void line(byte[] block, int offset, int length);
}
