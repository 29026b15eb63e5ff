/** Where pipeline noise comes from: secure per worker, or seeded per element key (tests only). */
package dev.tradeoff.beam.random;
