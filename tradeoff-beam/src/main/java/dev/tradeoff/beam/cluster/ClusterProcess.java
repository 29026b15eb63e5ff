package dev.tradeoff.beam.cluster;

/**
 * One JVM a cluster start launched: its role, process id and start instant. The instant tells the
 * process apart from a later one that reuses the id, so a stop never signals a process it did not
 * start.
 *
 * @param role what the JVM is ({@code jobmanager}, {@code taskmanager-0}, {@code master},
 *     {@code worker-0}, ...)
 * @param pid its process id
 * @param startInstant its start instant as {@link ProcessHandle.Info#startInstant()} reported it,
 *     or empty where the platform reports none
 */
public record ClusterProcess(String role, long pid, String startInstant) {

  /** Whether this process is still running: the same id with the same start instant. */
  public boolean alive() {
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
        .filter(h -> startInstant.isEmpty() || h.info().startInstant()
            .map(i -> i.toString().equals(startInstant)).orElse(false))
        .isPresent();
  }
}
