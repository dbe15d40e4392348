import type { ConfigIssue, RehydrateConfig } from "./load_config.ts";
import { mergeLayer } from "./_merge.ts";
import { configSchema } from "./config_schema.ts";
import { defaultConfig } from "./default_config.ts";
import { describeJsonError, jsonSyntaxError } from "./json_syntax_error.ts";

/** Options for {@linkcode checkConfigText}. */
export interface CheckConfigTextOptions {
  /** The file the text was read from, named in each issue. */
  file: string;
  /**
   * True for a project's own `.claude/rehydrate.json`, which may not set the keys marked
   * `"x-scope": "user"` (they are reported as `user_only`). Default false: the user's own file.
   */
  project?: boolean;
  /** The config the valid values are merged into. Default: a fresh `defaultConfig()`, for a check only. */
  into?: RehydrateConfig;
  /** Hears the file of every value taken, by dotted key (`loadConfig`'s `origins`). Default: none. */
  origins?: Record<string, string>;
}

/**
 * Checks the text of one config file the way the hooks read it: JSON (a leading BOM allowed), then
 * each key against `schemas/config.v1.json` with the trust rules of a project's file (user-only
 * keys, paths that stay inside the project), the issues of an array's items said once. Returns
 * whether the text was JSON and every issue, each with its JSON pointer (`invalid_json` with the
 * line of the error, and its code and position but not the text). `loadConfig` merges with it;
 * `rehydrate validate` and `rehydrate doctor` report what it finds in the same words. Never throws.
 *
 * @example
 * ```ts
 * const { issues } = checkConfigText('{"session": {"fillWarnings": [55, 65]}}', { file: "rehydrate.json", project: true });
 * issues[0].message; // "Must be at most 1 (items 0 and 1): write fractions, 0.55 for 55 %"
 * ```
 */
export function checkConfigText(
  text: string,
  options: CheckConfigTextOptions,
): { json: boolean; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // By code and position only: JSON.parse's message quotes the text, and a linked config may be any file.
    issues.push({
      code: "invalid_json",
      file: options.file,
      path: "",
      line: jsonSyntaxError(text)?.line ?? 1,
      message: `Cannot parse the config file: ${describeJsonError(text)}`,
    });
    return { json: false, issues };
  }
  const into = (options.into ?? defaultConfig()) as unknown as Record<string, unknown>;
  mergeLayer(into, value, configSchema(), {
    file: options.file,
    path: "",
    issues,
    project: options.project === true,
    origins: options.origins,
  });
  return { json: true, issues };
}
