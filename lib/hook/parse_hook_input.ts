import type { HookEventName, HookInput } from "./hook_types.ts";

/** Why an input was refused. */
export type HookInputErrorCode =
  | "EMPTY"
  | "INVALID_JSON"
  | "NOT_AN_OBJECT"
  | "MISSING_FIELD"
  | "WRONG_TYPE"
  | "PATH_TOO_LONG"
  | "WRONG_EVENT";

/** Result of {@linkcode parseHookInput}: the input of the event `E`, or why there is none. */
export type ParseHookInputResult<E extends HookEventName = HookEventName> =
  | { value: HookInput<E>; error: null }
  | { value: null; error: { code: HookInputErrorCode; message: string } };

/** Options for {@linkcode parseHookInput}. */
export interface ParseHookInputOptions<E extends HookEventName = HookEventName> {
  /** When set, `hook_event_name` must equal it. Default: any. */
  event?: E;
}

const REQUIRED = ["session_id", "transcript_path", "cwd", "hook_event_name"] as const;
/**
 * The longest `cwd` or `transcript_path` taken, in characters: Windows' extended-length limit, far
 * above any real path (Linux: 4,096 bytes). A forged path of a million characters made each path
 * check re-normalise it, a second of CPU in PreCompact (the fuzzer's time property).
 */
const MAX_PATH_CHARS = 32_767;

/**
 * Parses the JSON Claude Code writes on a hook's stdin and checks the common
 * fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name` must be
 * strings; `cwd` and `transcript_path` at most 32,767 characters). The text is trimmed first: the client may send a leading newline.
 * With `options.event` the input must be that event's, and is typed as its input.
 * Never throws.
 *
 * @example
 * ```ts
 * const r = parseHookInput('{"session_id":"s","transcript_path":"","cwd":"/p","hook_event_name":"Stop"}', { event: "Stop" });
 * r.error === null && r.value.stop_hook_active !== true; // true
 * ```
 */
export function parseHookInput<E extends HookEventName = HookEventName>(
  text: string,
  options: ParseHookInputOptions<E> = {},
): ParseHookInputResult<E> {
  const trimmed = text.trim();
  if (trimmed === "") return fail("EMPTY", "Cannot parse hook input: stdin is empty");
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    return fail("INVALID_JSON", `Cannot parse hook input: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail("NOT_AN_OBJECT", "Cannot parse hook input: not a JSON object");
  }
  const obj = value as Record<string, unknown>;
  for (const key of REQUIRED) {
    if (!(key in obj)) return fail("MISSING_FIELD", `Hook input has no ${key}`);
    if (typeof obj[key] !== "string") return fail("WRONG_TYPE", `Hook input field ${key} is not a string`);
  }
  for (const key of ["cwd", "transcript_path"] as const) {
    if ((obj[key] as string).length > MAX_PATH_CHARS) {
      return fail("PATH_TOO_LONG", `Hook input field ${key} is longer than ${MAX_PATH_CHARS} characters`);
    }
  }
  if (options.event !== undefined && obj.hook_event_name !== options.event) {
    return fail("WRONG_EVENT", `Hook input is for ${String(obj.hook_event_name)}, not ${options.event}`);
  }
  // The one place an input gets its type: the checks above are all a hook relies on.
  return { value: obj as HookInput<E>, error: null };
}

function fail(
  code: HookInputErrorCode,
  message: string,
): { value: null; error: { code: HookInputErrorCode; message: string } } {
  return { value: null, error: { code, message } };
}
