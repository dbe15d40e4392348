import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { cutMiddle } from "../redact/cut_middle.ts";
import { cutText } from "../redact/quote_line.ts";
import { redact } from "../redact/redact.ts";
import { isCheckCommand } from "./check_command.ts";
import { resultText, type ToolResult } from "./_results.ts";

/** One command the session ran with the Bash tool, and how its newest run ended. */
export interface SessionCommand {
  /** The command line as the agent ran it: redacted, its head and tail kept when long. */
  command: string;
  /** Its exit status: the result's `Exit code N`, 0 for a result that is not an error; absent when unknown. */
  exit?: number;
  /**
   * The first line of its output that reports a failure (a failing test, a compiler error, a
   * traceback), or the last line of a run that failed without one; redacted and capped. Also set
   * for a run that exited 0 while its output reports failures (`go test ./... | tail`).
   */
  failure?: string;
  /** When its call was written. */
  timestamp?: string;
  /**
   * True for the session's newest command when it failed and is not a build, test or lint command:
   * the failure still in front of the agent at the cut (a rebase stopped on a conflict, a script
   * that crashed).
   */
  last?: true;
}

/** Collects the newest build, test and lint commands from rows read newest first. */
export interface CommandTracker {
  /** True while older commands can still change the result. */
  wants(): boolean;
  /**
   * Feeds one Bash call and its result (undefined when none was read), newest first. `recent`
   * (default true): the call is within the latest turns, so the session's newest command, when it
   * failed, is still the failure in front of the agent.
   */
  add(
    call: { input: Record<string, unknown> },
    result: ToolResult | undefined,
    row: TranscriptRow,
    recent?: boolean,
  ): void;
  /** Adds, as older than every call fed, the commands a snapshot kept of the rows before them. */
  older(commands: readonly SessionCommand[]): void;
  /** The commands, newest first: the newest failed command (`last`) when there is one, then the checks. */
  result(): SessionCommand[];
}

/** Distinct build, test and lint commands kept. */
export const MAX_CHECK_COMMANDS = 3;
/** Longest command line kept, in UTF-16 units. */
export const MAX_COMMAND_CHARS = 300;
/** Longest failure line kept. */
export const MAX_FAILURE_CHARS = 200;
/** Output read for the failure line: the start of a long log says where it failed first. */
const OUTPUT_SCAN_CHARS = 64 * 1024;
const EXIT_CODE = /^Exit code (\d{1,3})\b/;
/** A result the user or a permission rule refused: the command never ran. */
const REFUSED =
  /doesn't want to proceed|tool use was rejected|[Pp]ermission to use \S+ (?:has been )?denied|was blocked/;
/**
 * Lines that say where a run failed, in the tools' own words: Go's `--- FAIL: TestX`, TAP's
 * `not ok 1 - name` (Node's test runner without a terminal), pytest's `FAILED tests/x.py::test_y`, Jest's `✕`, `file:line:col: error …`, compiler error codes, panics,
 * tracebacks, assertion errors, npm's `ERR!`.
 */
const FAILURE_LINE = new RegExp(
  [
    String.raw`^\s*--- FAIL\b`,
    String.raw`^\s*not ok \d+\b`,
    String.raw`\bFAILED\b`,
    String.raw`^\s*[✗✘✕×✖]\s`,
    String.raw`^\S+:\d+(?::\d+)?:?\s+(?:error|fatal|undefined|cannot|expected)`,
    String.raw`\berror(?:\[[A-Z]?\d+\]|\s+TS\d+)?:`,
    String.raw`^\s*(?:Error|ERROR|FATAL|panic):`,
    String.raw`^Traceback \(most recent call last\)`,
    String.raw`\bAssertionError\b`,
    String.raw`^npm ERR!`,
    String.raw`\b(?:Segmentation fault|Killed|Aborted)\b`,
  ].join("|"),
);
/**
 * Lines that only say that something failed, best first: kept when no line says where (Go's
 * `FAIL\tpkg`, `2 failed`, a task runner's `task failed`, a bare `FAIL`).
 */
const FAILED_SUMMARIES: readonly RegExp[] = [
  /^\s*FAIL\s+\S/,
  /\b[1-9]\d* (?:failed|failing|failures?|errors?)\b/i,
  /\b(?:task|command|build|job) failed\b/i,
  /^\s*FAIL\b/,
];
/** Lines that say nothing failed, though they name failures (`0 failed`, `no errors`). */
const NOT_A_FAILURE = /\b(?:0|no) (?:failed|failures?|errors?)\b/i;

/**
 * Collects, from Bash calls fed newest first, the commands the agent re-runs to see where the work
 * stands: the newest {@linkcode MAX_CHECK_COMMANDS} distinct build, test and lint commands
 * ({@linkcode isCheckCommand}; two runs that differ only in `2>&1` or a last `| tail`/`| head`
 * stage are one command, shown as last run), each with how its newest run ended (exit status, the
 * first line of output that reports a failure). The session's newest command is kept too when it
 * failed (`last`), whatever it was. Calls the user refused never ran and are skipped. Every text is
 * redacted and capped.
 *
 * @example
 * ```ts
 * import { commandTracker } from "./commands.ts";
 * const tracker = commandTracker();
 * tracker.add({ input: { command: "npm test 2>&1 | tail -20" } }, { id: "t1", isError: true, content: "Exit code 1\nFAIL src/a.test.ts" }, row);
 * tracker.result(); // [{ command: "npm test 2>&1 | tail -20", exit: 1, failure: "FAIL src/a.test.ts" }]
 * ```
 */
export function commandTracker(): CommandTracker {
  const checks: SessionCommand[] = [];
  const keys = new Set<string>();
  let newest: SessionCommand | undefined;
  let seenAny = false;
  let closed = false;
  return {
    wants: () => !closed && checks.length < MAX_CHECK_COMMANDS,
    add(call, result, row, recent = true): void {
      if (closed) return;
      const raw = call.input.command;
      if (typeof raw !== "string" || raw.trim() === "") return;
      const outcome = result === undefined ? {} : outcomeOf(result);
      if (outcome === "refused") return;
      const first = !seenAny;
      seenAny = true;
      const check = isCheckCommand(raw);
      if (!check && !first) return;
      const entry: SessionCommand = { command: cutMiddle(raw.trim(), MAX_COMMAND_CHARS, { redact: true }) };
      if (outcome.exit !== undefined) entry.exit = outcome.exit;
      if (outcome.failure !== undefined) entry.failure = outcome.failure;
      if (typeof row.timestamp === "string" && row.timestamp.length <= 64) entry.timestamp = row.timestamp;
      if (!check) {
        if (recent && entry.exit !== undefined && entry.exit !== 0) newest = { ...entry, last: true };
        return;
      }
      if (checks.length >= MAX_CHECK_COMMANDS) return;
      const key = commandKey(raw);
      if (keys.has(key)) return;
      keys.add(key);
      checks.push(entry);
    },
    older(commands): void {
      if (closed) return;
      closed = true;
      for (const c of commands) {
        // The older snapshot's newest failed command is still the newest when no call came since.
        if (c.last === true) {
          if (!seenAny) newest = { ...c };
          continue;
        }
        if (checks.length >= MAX_CHECK_COMMANDS) continue;
        const key = commandKey(c.command);
        if (keys.has(key)) continue;
        keys.add(key);
        checks.push({ ...c });
      }
    },
    result: () =>
      newest === undefined ? checks.map((c) => ({ ...c })) : [{ ...newest }, ...checks.map((c) => ({ ...c }))],
  };
}

/**
 * The command with what only trims or redirects its output taken off (`2>&1`, a last `| tail`,
 * `| head` or `| grep` stage) and its whitespace collapsed: two runs of one check that trim their
 * output differently are one command.
 */
function commandKey(command: string): string {
  let c = command.replace(/\s+/g, " ").trim();
  for (let i = 0; i < 3; i++) {
    const before = c;
    c = c.replace(/\s*\|\s*(?:tail|head|grep|less|more|cat|tee)\b[^|]*$/, "").replace(/\s*2>&1\s*/g, " ").trim();
    if (c === before) break;
  }
  return c;
}

/** How a Bash result ended: its exit status and failure line, or "refused" when the command never ran. */
function outcomeOf(result: ToolResult): { exit?: number; failure?: string } | "refused" {
  const text = resultText(result.content);
  const detail = result.detail;
  let exit: number | undefined;
  let body = text;
  if (result.isError) {
    if (REFUSED.test(text.slice(0, 400))) return "refused";
    const code = EXIT_CODE.exec(text);
    if (code !== null) {
      exit = Number(code[1]);
      body = text.slice(code[0].length);
    }
  } else if (detail?.interrupted !== true && typeof detail?.backgroundTaskId !== "string") {
    exit = 0;
  }
  const failure = failureLine(body, result.isError || (exit !== undefined && exit !== 0));
  return failure === undefined
    ? (exit === undefined ? {} : { exit })
    : exit === undefined
    ? { failure }
    : { exit, failure };
}

/** The first line of `output` that reports a failure; for a failed run without one, its last non-empty line. */
function failureLine(output: string, failed: boolean): string | undefined {
  const text = output.length > OUTPUT_SCAN_CHARS ? output.slice(0, OUTPUT_SCAN_CHARS) : output;
  let last: string | undefined;
  const summaries: (string | undefined)[] = [];
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t === "") continue;
    last = t;
    if (NOT_A_FAILURE.test(t)) continue;
    if (FAILURE_LINE.test(t)) return cap(t);
    for (let i = 0; i < FAILED_SUMMARIES.length; i++) {
      if (summaries[i] === undefined && FAILED_SUMMARIES[i].test(t)) summaries[i] = t;
    }
  }
  const summary = summaries.find((t) => t !== undefined);
  if (summary !== undefined) return cap(summary);
  if (!failed) return undefined;
  if (output.length > OUTPUT_SCAN_CHARS) {
    const tail = output.slice(-4096).trimEnd();
    last = tail.slice(tail.lastIndexOf("\n") + 1).trim() || last;
  }
  return last === undefined ? undefined : cap(last);
}

function cap(line: string): string {
  return cutText(redact(line), MAX_FAILURE_CHARS);
}
