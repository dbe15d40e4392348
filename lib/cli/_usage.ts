/**
 * Private helper of the CLI verbs: the one shape every error takes, so a script can tell a
 * mistake on the command line (exit 2) from a failure while working (exit 1), and a reader finds
 * the same words everywhere.
 *
 * - Usage error (an unknown option, a missing value, options that exclude each other, a name that
 *   is not one of the choices): `rehydrate <verb>: <message>` and on the next line
 *   `Try 'rehydrate <verb> --help'.`, exit 2.
 * - Runtime failure (a file or directory that cannot be read or written, invalid content): one
 *   line `rehydrate <verb>: <message>`, exit 1.
 *
 * Messages start lowercase and carry no final period.
 *
 * @module
 */

import type { CliIo } from "./main.ts";

/** Exit code of a usage error. */
export const EXIT_USAGE = 2;
/** Exit code of a runtime failure. */
export const EXIT_FAILURE = 1;

/**
 * Prints a usage error (the message line and the hint line) and returns 2. `verb` is empty for the
 * top-level command.
 *
 * @example
 * ```ts
 * return usageError(io, "install", "--project and --user exclude each other");
 * // rehydrate install: --project and --user exclude each other
 * // Try 'rehydrate install --help'.
 * ```
 */
export function usageError(io: CliIo, verb: string, message: string): number {
  const name = verb ? `rehydrate ${verb}` : "rehydrate";
  io.err(`${name}: ${tidy(message)}\n${usageHint(verb)}\n`);
  return EXIT_USAGE;
}

/**
 * The hint line under a usage error.
 *
 * @example
 * ```ts
 * usageHint("status"); // "Try 'rehydrate status --help'."
 * ```
 */
export function usageHint(verb: string): string {
  return `Try 'rehydrate${verb ? " " + verb : ""} --help'.`;
}

/**
 * Prints a runtime failure on one line and returns 1.
 *
 * @example
 * ```ts
 * return failure(io, "status", `no directory ${dir}`);
 * // rehydrate status: no directory /work/nope
 * ```
 */
export function failure(io: CliIo, verb: string, message: string): number {
  io.err(`rehydrate${verb ? " " + verb : ""}: ${tidy(message)}\n`);
  return EXIT_FAILURE;
}

/**
 * A message as the verbs print it: the first line only, no final period, and a sentence-case
 * first word lowercased (`Missing value` → `missing value`; `JSON`, paths and names stay).
 *
 * @example
 * ```ts
 * tidy("Option '--x' is unknown."); // "option '--x' is unknown"
 * ```
 */
export function tidy(message: string): string {
  let line = message.split("\n", 1)[0].trim();
  if (line.endsWith(".") && !line.endsWith("..")) line = line.slice(0, -1);
  return /^[A-Z][a-z]/.test(line) ? line[0].toLowerCase() + line.slice(1) : line;
}

/**
 * True when the arguments ask for the version (`-v`, `-V`, `--version`) before any `--`.
 *
 * @example
 * ```ts
 * asksVersion(["--project", "x", "-v"]); // true
 * asksVersion(["--", "-v"]); // false: a file named -v
 * ```
 */
export function asksVersion(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "-v" || a === "-V" || a === "--version") return true;
  }
  return false;
}

/**
 * True when the arguments ask for help (`-h`, `--help`) before any `--`.
 *
 * @example
 * ```ts
 * asksHelp(["--json", "-h"]); // true
 * ```
 */
export function asksHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "-h" || a === "--help") return true;
  }
  return false;
}
