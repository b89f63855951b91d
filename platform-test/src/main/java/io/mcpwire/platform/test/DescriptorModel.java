package io.mcpwire.platform.test;

import java.util.List;
import java.util.Set;

/**
 * How a fake process's descriptors reach its open files: a POSIX table ({@link FakeTable}) or a
 * Windows C runtime over OS handles ({@link FakeCrt}). The kernel asks it what the inspection
 * API shows and what the wire check needs. Not thread-safe: the kernel's lock guards it.
 */
interface DescriptorModel {

    /** The open file {@code fd} refers to, or null when it is closed or has none. */
    FakeFile file(int fd);

    /** Closes {@code fd} if it is open, as a failing close or a destroying {@code dup2} still does. */
    void close(int fd);

    /** Closes every descriptor and handle: the process has ended. */
    void closeAll();

    /** What {@code fd} refers to, for messages. */
    String describe(int fd);

    /** What the OS standard-handle slot {@code fd} (0..2) refers to. */
    String describeSlot(int fd);

    /** Whether {@code fd} is open and not inherited by a child. */
    boolean isCloseOnExec(int fd);

    /** The descriptors a child would inherit, in order. */
    List<Integer> inherited();

    /** What a child started with inherited stdio gets as its fd 0, 1 and 2. */
    List<String> childStdio();

    /** The open files a child started now with inherited stdio could reach: its stdio and every inherited one. */
    Set<FakeFile> reachableByChild();

    /** The whole table, to compare before and after. */
    TableSnapshot snapshot();
}
