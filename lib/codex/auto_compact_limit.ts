import { readFileSync, statSync } from "../node/fs.ts";

/** `model_auto_compact_token_limit = 120_000` at the top level of a `config.toml`. */
const LIMIT = /^\s*model_auto_compact_token_limit\s*=\s*([0-9][0-9_]{0,15})\s*(?:#.*)?$/;
/** A config file larger than this is not read for one key. */
const MAX_BYTES = 1 << 20;

/**
 * The `model_auto_compact_token_limit` a Codex `config.toml` sets at its top level (before its
 * first table), when it is a plain integer: the token count from which Codex compacts a thread on
 * its own, when lower than its default (90 % of the model's window). Undefined when the file is
 * missing, not a regular file, larger than 1 MiB, or does not set it so (a profile's or a `-c` flag's value is not
 * seen).
 *
 * @example
 * ```ts
 * import { autoCompactLimit } from "./auto_compact_limit.ts";
 * autoCompactLimit("/home/me/.codex/config.toml"); // 120000, or undefined
 * ```
 */
export function autoCompactLimit(configPath: string): number | undefined {
  let text: string;
  try {
    // Not a FIFO or a device: reading one would block or never end.
    const st = statSync(configPath);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    text = readFileSync(configPath, "utf8");
  } catch {
    return undefined;
  }
  for (const line of text.split("\n")) {
    if (/^\s*\[/.test(line)) break;
    const m = LIMIT.exec(line);
    if (m !== null) {
      const n = Number(m[1].replaceAll("_", ""));
      return Number.isSafeInteger(n) && n > 0 ? n : undefined;
    }
  }
  return undefined;
}
