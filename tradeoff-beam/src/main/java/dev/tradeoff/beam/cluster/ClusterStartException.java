package dev.tradeoff.beam.cluster;

import java.util.List;

/**
 * The cluster did not start: a process exited during start-up, or the cluster did not accept jobs
 * in time. The message names the process, its exit status and the last lines of its log, or what
 * was still missing at the deadline; every process that was started has been stopped. Not a bug and
 * not bad input: the machine (its load, its ports, its memory) did not let the cluster start.
 */
public final class ClusterStartException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<ClusterProcess> started;

  public ClusterStartException(String message, List<ClusterProcess> started) {
    super(message);
    this.started = List.copyOf(started);
  }

  /** The processes that were started (and are stopped now). */
  public List<ClusterProcess> started() {
    return started;
  }
}
