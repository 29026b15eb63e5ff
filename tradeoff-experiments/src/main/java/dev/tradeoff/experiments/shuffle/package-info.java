/**
 * Figure 1 of Chen and Long's shuffle-model paper, with the exact worst-case curve of
 * tradeoff-shuffle added, drawn with XChart ({@code tradeoff reproduce shuffle}, {@code tradeoff
 * shuffle plot}).
 */
package dev.tradeoff.experiments.shuffle;
