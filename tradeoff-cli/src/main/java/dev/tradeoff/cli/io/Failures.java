package dev.tradeoff.cli.io;

import dev.tradeoff.accounting.internal.Shown;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;
import java.util.zip.ZipException;

/**
 * The command line's global guard: turns any {@link Throwable} a command throws into the one line it
 * prints on standard error and its exit status. No command ever prints a stack trace, and every
 * line is made safe to print ({@link Shown#line}: control characters escaped, one line, a length
 * limit), whatever a file or flag put into it.
 *
 * <ul>
 *   <li>{@link IllegalArgumentException} (the {@code Require}/{@link Inputs} message, which names
 *       the flag, its value and the allowed range): status {@value #BAD_INPUT};
 *   <li>file problems ({@link NoSuchFileException}, {@link AccessDeniedException}, other {@link
 *       FileSystemException}s, {@link ZipException} and {@link EOFException} for compressed or
 *       truncated garbage): the file and what is wrong with it, status {@value
 *       #BAD_INPUT};
 *   <li>a cluster that did not start ({@link dev.tradeoff.beam.cluster.ClusterStartException}:
 *       the process, its exit status, its log) and a job that failed inside a runner (Flink,
 *       Spark) for a reason not thrown by Tradeoff's code: what happened, status {@value
 *       #INTERNAL}, not called a bug;
 *   <li>{@link ArithmeticException}, {@link OutOfMemoryError} and anything else: what went wrong
 *       and the flags that were given, status {@value #INTERNAL} (these mean an input passed the
 *       boundary checks that should have refused it, a bug to report).
 * </ul>
 */
public final class Failures {

  /** Exit status for bad input (parameters out of range, malformed specs, unusable files). */
  public static final int BAD_INPUT = 2;

  /** Exit status when a privacy budget refuses a request (nothing charged, nothing released). */
  public static final int BUDGET_EXCEEDED = 3;

  /** Exit status for a failure that is not the user's input: a bug or a lack of resources. */
  public static final int INTERNAL = 1;

  /** One line and the exit status. */
  public record Line(String message, int status) {}

  private Failures() {}

  /**
   * The line for {@code failure}, thrown by the command {@code command} (its qualified name, e.g.
   * {@code "account compose"}) run with {@code args}.
   */
  public static Line describe(Throwable failure, String command, List<String> args) {
    Line line = classify(failure, command, args);
    return new Line(Shown.line(line.message()), line.status());
  }

  private static Line classify(Throwable failure, String command, List<String> args) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      Line line = known(t);
      if (line != null) {
        return line;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    String given = args.isEmpty() ? "" : " (given: " + abbreviate(String.join(" ", args)) + ")";
    if (root(failure) instanceof OutOfMemoryError) {
      return new Line(command + " ran out of memory: an input asks for more than this JVM's heap"
          + " (raise it with TRADEOFF_JAVA_OPTS=-Xmx..., or use smaller values)" + given, INTERNAL);
    }
    if (root(failure) instanceof StackOverflowError) {
      return new Line(command + " recursed too deeply on these inputs" + given, INTERNAL);
    }
    Throwable r = root(failure);
    if (onARunner(failure) && !thrownByTradeoff(r)) {
      return new Line(command + " failed on the runner: " + r.getClass().getSimpleName()
          + (r.getMessage() == null ? "" : " (" + firstLine(r.getMessage()) + ")")
          + "; the runner or the machine, not the input (on a cluster, see its logs; a loaded"
          + " machine may need a longer cluster up --job-timeout)", INTERNAL);
    }
    return new Line(command + " failed: " + r.getClass().getSimpleName()
        + (r.getMessage() == null ? "" : " (" + firstLine(r.getMessage()) + ")")
        + "; an input is outside the range this command can compute" + given
        + " (this is a bug: a boundary check should have named the flag)", INTERNAL);
  }

  private static Line known(Throwable t) {
    int bad = BAD_INPUT;
    if (t instanceof dev.tradeoff.beam.cluster.ClusterStartException) {
      return new Line(t.getMessage(), INTERNAL);
    }
    if (t instanceof IllegalArgumentException && t.getMessage() != null) {
      return new Line(t.getMessage(), bad);
    }
    if (t instanceof NoSuchFileException e) {
      return new Line("no such file or directory: " + e.getFile(), bad);
    }
    if (t instanceof AccessDeniedException e) {
      return new Line("permission denied: " + e.getFile(), bad);
    }
    if (t instanceof NotDirectoryException e) {
      return new Line("not a directory: " + e.getFile(), bad);
    }
    if (t instanceof FileAlreadyExistsException e) {
      return new Line("already exists and is not a directory: " + e.getFile(), bad);
    }
    if (t instanceof FileSystemException e) {
      return new Line("cannot use " + e.getFile() + ": "
          + (e.getReason() == null ? e.getClass().getSimpleName() : e.getReason()), bad);
    }
    if (t instanceof ZipException e) {
      return new Line("not a valid compressed (gzip) file: " + firstLine(e.getMessage()), bad);
    }
    if (t instanceof EOFException) {
      return new Line("a file ended before its header said it would (truncated or not the"
          + " expected format)", bad);
    }
    if (t instanceof UncheckedIOException || t instanceof IOException) {
      return t.getCause() != null && t.getCause() != t
          ? null
          : new Line("input/output error: " + firstLine(String.valueOf(t.getMessage())), bad);
    }
    return null;
  }

  /** Whether the failure came through a Beam runner, Flink or Spark. */
  private static boolean onARunner(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String name = t.getClass().getName();
      if (name.startsWith("org.apache.flink.") || name.startsWith("org.apache.spark.")
          || name.startsWith("org.apache.beam.sdk.Pipeline$PipelineExecutionException")) {
        return true;
      }
    }
    return false;
  }

  /** Whether Tradeoff's own code threw {@code t} (its innermost frame is ours): then a bug. */
  private static boolean thrownByTradeoff(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    return frames.length > 0 && frames[0].getClassName().startsWith("dev.tradeoff.");
  }

  private static Throwable root(Throwable t) {
    Throwable r = t;
    while (r.getCause() != null && r.getCause() != r) {
      r = r.getCause();
    }
    return r;
  }

  private static String firstLine(String message) {
    String s = message == null ? "" : message.strip();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl).strip();
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 197) + "...";
  }
}
