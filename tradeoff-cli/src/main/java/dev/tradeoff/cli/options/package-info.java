/**
 * Flags that several commands take (the ledger, mechanism specs, privacy parameters, the
 * aggregator and the runner), parsed and checked in one place when the arguments are parsed
 * (picocli converters), so that the commands trust the values they receive.
 */
package dev.tradeoff.cli.options;
