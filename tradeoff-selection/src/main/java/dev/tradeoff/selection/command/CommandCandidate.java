package dev.tradeoff.selection.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.selection.expost.Candidate;
import dev.tradeoff.selection.expost.Scored;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;

/**
 * A tuning candidate that is a shell command ({@code sh -c}): it must exit 0 and print, as its last
 * non-empty line, one JSON object {"score": s, "epsilon": e} (or {"score": s, "rdp": {"orders":
 * [...], "epsilons": [...]}}) with the privacy it actually spent, which must not exceed what the plan
 * declared. Anything else (a crash, a timeout, garbage, a negative, NaN or too large ε) fails the
 * whole tuning run with an {@link IllegalArgumentException} naming the candidate. Its randomness is
 * its own (the command's); {@code random} is not passed to it.
 */
final class CommandCandidate implements Candidate<JsonNode> {

  private final TuningPlan.Entry entry;
  private final long timeoutSeconds;
  private final Double alpha;

  /** How long a shutdown waits for a candidate's start to return before giving up on it. */
  private static final long START_WAIT_SECONDS = 10;

  CommandCandidate(TuningPlan.Entry entry, long timeoutSeconds, Double alpha) {
    this.entry = entry;
    this.timeoutSeconds = timeoutSeconds;
    this.alpha = alpha;
  }

  @Override
  public Scored<JsonNode> run(RandomGenerator random) {
    String who = "candidate '" + entry.name() + "'";
    // the candidate's whole process tree ends with this JVM (SIGTERM, Ctrl-C, System.exit). The
    // hook is registered before the process starts; a shutdown that begins while start() is still
    // returning (the shell may already run) waits for it, so no start escapes the hook
    AtomicReference<Process> started = new AtomicReference<>();
    CountDownLatch startReturned = new CountDownLatch(1);
    Thread reaper = new Thread(() -> {
      try {
        startReturned.await(START_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Process q = started.get();
      if (q != null) {
        destroyTree(q);
      }
    }, "tradeoff-candidate-reaper");
    try {
      Runtime.getRuntime().addShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      throw new IllegalArgumentException(who + " was not started: the JVM is shutting down");
    }
    Process p = null;
    try {
      try {
        p = new ProcessBuilder("sh", "-c", entry.command()).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        started.set(p);
        p.getOutputStream().close();
      } catch (IOException e) {
        throw new IllegalArgumentException(who + " could not start: " + e.getMessage());
      } finally {
        startReturned.countDown();
      }
      return finish(p, who);
    } finally {
      if (p != null) {
        destroyTree(p);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(reaper);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook runs (or ran) and ends the tree
      }
    }
  }

  private static void destroyTree(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  private Scored<JsonNode> finish(Process p, String who) {
    CompletableFuture<String> out = drain(p.getInputStream());
    CompletableFuture<String> err = drain(p.getErrorStream());
    try {
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new IllegalArgumentException(who + " timed out after " + timeoutSeconds + " s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalArgumentException(who + " was interrupted");
    }
    String stdout = out.join();
    if (p.exitValue() != 0) {
      throw new IllegalArgumentException(
          who + " exited with status " + p.exitValue() + lastLine(err.join(), ": "));
    }
    String line = lastLine(stdout, "");
    JsonNode json;
    try {
      json = TuningPlan.JSON.readTree(line);
    } catch (IOException e) {
      json = null;
    }
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException(
          who + " must print one JSON line {\"score\":..,\"epsilon\":..}, but printed '" + abbreviate(line) + "'");
    }
    JsonNode score = json.get("score");
    if (score == null || !score.isNumber() || Double.isNaN(score.doubleValue())) {
      throw new IllegalArgumentException(who + " reported score " + score + "; it must be a number (not NaN)");
    }
    checkPrivacy(json, who);
    return new Scored<>(score.doubleValue(), json);
  }

  private void checkPrivacy(JsonNode json, String who) {
    if (json.has("epsilon")) {
      JsonNode e = json.get("epsilon");
      double v = e.isNumber() ? e.doubleValue() : Double.NaN;
      if (!(v >= 0 && Double.isFinite(v))) {
        throw new IllegalArgumentException(
            who + " reported epsilon " + (e.isNumber() ? String.valueOf(v) : e.toString())
                + "; it must be >= 0 and finite");
      }
      // a pure ε also bounds RDP at every order, so it is compared with the declared ε (or ε(α))
      double declared = entry.epsilon().orElseGet(() -> entry.rdp().orElseThrow().epsilonAt(alpha));
      if (v > declared) {
        throw new IllegalArgumentException(who + " reported epsilon " + v + " above its declared " + declared);
      }
      return;
    }
    if (json.has("rdp")) {
      RenyiDp reported = TuningPlan.curve(json.get("rdp"), who + " rdp");
      double declared = entry.rdp().map(r -> r.epsilonAt(alpha)).orElseGet(() -> entry.epsilon().orElseThrow());
      double actual = reported.epsilonAt(alpha);
      if (!(actual <= declared)) {
        throw new IllegalArgumentException(
            who + " reported RDP epsilon " + actual + " at alpha " + alpha + " above its declared " + declared);
      }
      return;
    }
    throw new IllegalArgumentException(who + " must report \"epsilon\" or \"rdp\" next to its score");
  }

  private static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        in.transferTo(b);
        return b.toString(StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "";
      }
    });
  }

  private static String lastLine(String text, String prefix) {
    String[] lines = text.strip().split("\\R");
    String last = lines.length == 0 ? "" : lines[lines.length - 1].strip();
    return last.isEmpty() ? "" : prefix + (prefix.isEmpty() ? last : abbreviate(last));
  }

  private static String abbreviate(String s) {
    return s.length() <= 120 ? s : s.substring(0, 117) + "...";
  }
}
