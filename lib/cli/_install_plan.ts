/**
 * Private helper of `rehydrate install` / `uninstall`: the pure part. Which hooks each workflow
 * needs, how our entries are told apart from everyone else's, and the text of a settings file
 * after install or uninstall. Nothing here touches the disk.
 *
 * Our entries carry no marker (Claude Code's hook entries have no free-form field, and a
 * `statusMessage` would flash on every tool call): an entry is ours when its command runs a
 * binary whose file name contains `rehydrate` (or one of `knownBinaries`) with one of our hook
 * names (and, for the Codex CLI's hooks, `--agent codex` after it), either bare or behind the
 * guard a shared install writes (see {@linkcode hookCommand}).
 *
 * @module
 */

import { HOOK_NAMES } from "../hook/hook_names.ts";
import type { HookEventName } from "../hook/hook_types.ts";
import {
  appendEdit,
  applyEdit,
  detectStyle,
  type JsonArrayNode,
  type JsonError,
  type JsonNode,
  type JsonObjectNode,
  member,
  parseJsonTree,
  removeEdit,
  type TextEdit,
} from "./_settings_json.ts";

/** A workflow of the other issues. */
export type Workflow = "projects" | "orchestration" | "dispatch";

/** Every workflow, in the order they are printed. */
export const WORKFLOWS: readonly Workflow[] = ["projects", "orchestration", "dispatch"];

/** One hook registration: which hook, on which event, with which matcher and timeout (seconds). */
export interface HookSpec {
  hook: string;
  event: HookEventName;
  /** Absent for events without a matcher (UserPromptSubmit, Stop). */
  matcher?: string;
  timeout: number;
  /** Run in the background (the entry's `"async": true`): Claude Code does not wait for it. */
  async?: true;
}

/**
 * The registrations for a set of workflows. The delivery core (PreCompact records, SessionStart
 * delivers, UserPromptSubmit re-delivers, a background Stop hook keeps the session's checkpoint)
 * is always there; orchestration adds PostCompact (the compact summary into the checkpoint) and
 * PostToolUse on writers (ORCHESTRATION.yaml staleness);
 * dispatch adds PreToolUse on every tool and Stop (the re-read enforcement) and PostToolUse on
 * Skill (handler registration); `reread.enforce: true` adds PreToolUse and Stop in any repository
 * (`"auto"` enforces in handler and worker sessions only, which dispatch covers).
 */
export function hooksFor(
  workflows: readonly Workflow[],
  options: { enforceReread?: boolean; modelSwitch?: boolean } = {},
): HookSpec[] {
  const has = (w: Workflow) => workflows.includes(w);
  const enforce = has("dispatch") || options.enforceReread === true;
  const postTools = [
    ...(has("orchestration") ? ["Write", "Edit", "MultiEdit"] : []),
    ...(has("dispatch") ? ["Skill"] : []),
  ];
  const specs: HookSpec[] = [
    { hook: "pre-compact", event: "PreCompact", matcher: "manual|auto", timeout: 60 },
    { hook: "session-start", event: "SessionStart", matcher: "startup|resume|clear|compact|fork", timeout: 30 },
    { hook: "user-prompt-submit", event: "UserPromptSubmit", timeout: 10 },
  ];
  // The window can change mid-session: the fill warning reads the new model from the session
  // record this hook updates. Only for clients that know the event (see _client_version.ts).
  if (options.modelSwitch === true) {
    specs.push({ hook: "post-model-switch", event: "PostModelSwitch", timeout: 10 });
  }
  if (has("orchestration")) {
    specs.push({ hook: "post-compact", event: "PostCompact", matcher: "manual|auto", timeout: 30 });
  }
  if (enforce) specs.push({ hook: "pre-tool-use", event: "PreToolUse", matcher: "*", timeout: 10 });
  if (postTools.length > 0) {
    specs.push({ hook: "post-tool-use", event: "PostToolUse", matcher: postTools.join("|"), timeout: 10 });
  }
  if (enforce) specs.push({ hook: "stop", event: "Stop", timeout: 10 });
  // The everyday layer's checkpoint after each turn, in the background (`"async": true`, which
  // every client rehydrate supports runs without waiting, 2.1.197 included): PreCompact then reads
  // the transcript back to the last turn's end, not to the previous compaction.
  specs.push({ hook: "session-checkpoint", event: "Stop", timeout: 30, async: true });
  return specs;
}

/** Why a settings file cannot be edited. A closed set. */
export type PlanErrorCode = JsonError["code"] | "not_object" | "hooks_not_object" | "event_not_array";

/** What install or uninstall would do to a settings file. */
export type SettingsPlan =
  | {
    ok: true;
    /** The new file text (equal to the old one when nothing changes). */
    text: string;
    changed: boolean;
    /** `Event:hook` of every entry added, updated in place or removed. */
    added: string[];
    updated: string[];
    removed: string[];
    /** `Event:hook` of entries already exactly right. */
    kept: string[];
  }
  | { ok: false; error: { code: PlanErrorCode; line: number; column: number; message: string } };

/**
 * Which workflows a set of installed entries stands for, so that a reinstall without
 * `--workflows` keeps them: PostCompact or PostToolUse on writers mean orchestration, PostToolUse
 * on Skill means dispatch. PreToolUse and Stop without dispatch stand for no workflow: they come
 * from `reread.enforce`, which the config says again at every install.
 *
 * @example
 * ```ts
 * workflowsOf([{ hook: "post-compact", matcher: "manual|auto" }]); // ["orchestration"]
 * ```
 */
export function workflowsOf(entries: readonly { hook: string; matcher?: string }[]): Workflow[] {
  const found = new Set<Workflow>();
  for (const e of entries) {
    const tools = (e.matcher ?? "").split("|");
    if (e.hook === "post-compact") found.add("orchestration");
    if (e.hook === "post-tool-use") {
      if (tools.some((t) => t === "Write" || t === "Edit" || t === "MultiEdit")) found.add("orchestration");
      if (tools.includes("Skill")) found.add("dispatch");
    }
  }
  return WORKFLOWS.filter((w) => found.has(w));
}

const GUARD_PATH = /^command -v (\S+) >\/dev\/null 2>&1 \|\| exit 0; exec (.+)$/s;
const GUARD_FILE = /^\[ -x (.+?) \] \|\| exit 0; exec (.+)$/s;

/**
 * The command line of one hook. Bare, `<prefix> <hook>`, for a settings file of this machine
 * (local or user). Guarded for a shared settings file, so a teammate without the binary gets a
 * silent exit 0 instead of `not found` (exit 127) on every event, and one with it gets the hook's
 * own exit code and output: `[ -x <path> ] || exit 0; exec <path> <hook>` for a binary inside the
 * project (`"$CLAUDE_PROJECT_DIR"/...`), `command -v <name> >/dev/null 2>&1 || exit 0; exec <name>
 * <hook>` for one found on PATH. POSIX sh and Git Bash (Claude Code's shell on Windows) run both.
 *
 * @example
 * ```ts
 * hookCommand("rehydrate", "stop", { guarded: true });
 * // "command -v rehydrate >/dev/null 2>&1 || exit 0; exec rehydrate stop"
 * ```
 */
export function hookCommand(prefix: string, hook: string, options: { guarded?: boolean } = {}): string {
  if (!options.guarded) return `${prefix} ${hook}`;
  const onPath = !/[/\\]/.test(firstWord(prefix).word);
  return onPath
    ? `command -v ${prefix} >/dev/null 2>&1 || exit 0; exec ${prefix} ${hook}`
    : `[ -x ${prefix} ] || exit 0; exec ${prefix} ${hook}`;
}

/**
 * The command a hook entry runs once its guard (see {@linkcode hookCommand}) is taken off, and
 * whether there was one. A guard that tests another binary than the one it runs is no guard of
 * ours: the command comes back unchanged.
 *
 * @example
 * ```ts
 * unguard("command -v rehydrate >/dev/null 2>&1 || exit 0; exec rehydrate stop");
 * // { command: "rehydrate stop", guarded: true }
 * ```
 */
export function unguard(command: string): { command: string; guarded: boolean } {
  const m = GUARD_PATH.exec(command) ?? GUARD_FILE.exec(command);
  if (m && firstWord(m[2]).raw === m[1]) return { command: m[2], guarded: true };
  return { command, guarded: false };
}

/** Options for {@linkcode planInstall}. */
export interface PlanInstallOptions {
  /** The command prefix, shell-ready: `/usr/local/bin/rehydrate` or `"$CLAUDE_PROJECT_DIR"/.claude/hooks/rehydrate`. */
  prefix: string;
  /** Write each command behind the guard of a shared file ({@linkcode hookCommand}). Default false. */
  guarded?: boolean;
  /** The registrations wanted; every other entry of ours is removed. */
  hooks: readonly HookSpec[];
  /** More command prefixes that count as ours even without `rehydrate` in the name. */
  knownBinaries?: readonly string[];
  /** Words after the hook name in every command (` --agent codex` for the Codex CLI's hooks). Default none. */
  suffix?: string;
}

const HOOK_SET = new Set(Object.keys(HOOK_NAMES));
const NEW_FILE = "{}\n";

/**
 * The settings text after registering exactly `options.hooks`: entries already right are kept
 * where they are, ours with another binary or timeout are updated in place, ours that are no
 * longer wanted are removed (with the matcher group, event array and `hooks` object they leave
 * empty), and missing ones are appended as a new matcher group at the end of their event's array.
 * `text` null (no file) starts from an empty object. Pure: install twice equals install once, and
 * {@linkcode planUninstall} after it gives the original text back.
 */
export function planInstall(text: string | null, options: PlanInstallOptions): SettingsPlan {
  const guarded = options.guarded === true;
  return plan(
    text ?? NEW_FILE,
    options.hooks,
    (hook) => hookCommand(options.prefix, hook + (options.suffix ?? ""), { guarded }),
    options.knownBinaries ?? [options.prefix],
  );
}

/** The settings text with every entry of ours removed (see {@linkcode planInstall}). */
export function planUninstall(text: string, options: { knownBinaries?: readonly string[] } = {}): SettingsPlan {
  return plan(text, [], null, options.knownBinaries ?? []);
}

interface Ours {
  event: string;
  hook: string;
  matcher: string | undefined;
  command: string;
  timeout: JsonNode | undefined;
  /** True when the entry says `"async": true`. */
  async: boolean;
  commandNode: JsonNode;
  /** The removal, cascading to containers this removal empties. */
  removal: TextEdit;
}

function plan(
  original: string,
  specs: readonly HookSpec[],
  commandFor: ((hook: string) => string) | null,
  known: readonly string[],
): SettingsPlan {
  const style = detectStyle(original);
  let text = original;
  const added: string[] = [];
  const updated: string[] = [];
  const removed: string[] = [];
  let kept: string[] = [];
  // One edit per round, then parse again: positions stay exact and the rounds are few.
  for (let round = 0; round < 1000; round++) {
    const parsed = parseJsonTree(text);
    if (parsed.error) return { ok: false, error: parsed.error };
    const root = parsed.value!;
    if (root.kind !== "object") return fail(text, root, "not_object", "The settings file is not a JSON object");
    const hooksMember = member(root, "hooks");
    if (hooksMember && hooksMember.value.kind !== "object") {
      return fail(
        text,
        hooksMember.value,
        "hooks_not_object",
        '"hooks" in the settings file is not an object; fix it by hand',
      );
    }
    const hooksNode = hooksMember?.value as JsonObjectNode | undefined;
    const found: Ours[] = [];
    if (hooksNode) {
      for (const m of hooksNode.members) {
        if (m.value.kind !== "array") {
          if (specs.some((s) => s.event === m.key)) {
            return fail(
              text,
              m.value,
              "event_not_array",
              `"hooks.${m.key}" in the settings file is not an array; fix it by hand`,
            );
          }
          continue;
        }
        collect(root, hooksNode, m.key, m.value, known, found);
      }
    }
    const claimed = new Set<Ours>();
    const missing: HookSpec[] = [];
    kept = [];
    for (const spec of specs) {
      const want = commandFor!(spec.hook);
      const exact = found.find((o) =>
        !claimed.has(o) && o.event === spec.event && o.hook === spec.hook && o.matcher === spec.matcher &&
        o.command === want && o.timeout?.kind === "number" && o.timeout.value === spec.timeout &&
        o.async === (spec.async === true)
      );
      if (exact) {
        claimed.add(exact);
        kept.push(`${spec.event}:${spec.hook}`);
      } else missing.push(spec);
    }
    let edit: TextEdit | null = null;
    let note: [string[], string] | null = null;
    for (const spec of missing) {
      // An entry that runs in the foreground where it should not (or the other way) is replaced.
      const near = found.find((o) =>
        !claimed.has(o) && o.event === spec.event && o.hook === spec.hook && o.matcher === spec.matcher &&
        o.timeout?.kind === "number" && o.async === (spec.async === true)
      );
      if (!near) continue;
      const want = commandFor!(spec.hook);
      edit = near.command !== want
        ? { start: near.commandNode.start, end: near.commandNode.end, insert: JSON.stringify(want) }
        : { start: near.timeout!.start, end: near.timeout!.end, insert: String(spec.timeout) };
      note = [updated, `${spec.event}:${spec.hook}`];
      break;
    }
    if (!edit) {
      const stale = found.find((o) => !claimed.has(o));
      if (stale) {
        edit = stale.removal;
        note = [removed, `${stale.event}:${stale.hook}`];
      }
    }
    if (!edit && missing.length > 0) {
      const spec = missing[0];
      const entry = {
        type: "command",
        command: commandFor!(spec.hook),
        timeout: spec.timeout,
        ...(spec.async ? { async: true } : {}),
      };
      const group = spec.matcher === undefined ? { hooks: [entry] } : { matcher: spec.matcher, hooks: [entry] };
      const eventMember = hooksNode ? member(hooksNode, spec.event) : undefined;
      if (!hooksNode) edit = appendEdit(text, root, { [spec.event]: [group] }, style, "hooks");
      else if (!eventMember) edit = appendEdit(text, hooksNode, [group], style, spec.event);
      else edit = appendEdit(text, eventMember.value as JsonArrayNode, group, style);
      note = [added, `${spec.event}:${spec.hook}`];
    }
    if (!edit) break;
    text = applyEdit(text, edit);
    if (note) note[0].push(note[1]);
  }
  // An update is also reported when its entry went through two rounds (command, then timeout).
  const touched = new Set([...added, ...updated]);
  return {
    ok: true,
    text,
    changed: text !== original,
    added,
    updated: [...new Set(updated)],
    removed,
    kept: kept.filter((k) => !touched.has(k)),
  };
}

function fail(text: string, node: JsonNode, code: PlanErrorCode, message: string): SettingsPlan {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < node.start; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { ok: false, error: { code, line, column: node.start - lineStart + 1, message } };
}

function collect(
  root: JsonObjectNode,
  hooksNode: JsonObjectNode,
  event: string,
  groups: JsonArrayNode,
  known: readonly string[],
  out: Ours[],
): void {
  groups.items.forEach((group, gi) => {
    if (group.kind !== "object") return;
    const list = member(group, "hooks")?.value;
    if (!list || list.kind !== "array") return;
    const matcherNode = member(group, "matcher")?.value;
    const matcher = matcherNode?.kind === "string" ? matcherNode.value : undefined;
    list.items.forEach((entry, ei) => {
      if (entry.kind !== "object") return;
      const hook = ourHook(entry, known);
      if (hook === null) return;
      const commandNode = member(entry, "command")!.value;
      const onlyOurs = group.members.every((m) => m.key === "hooks" || m.key === "matcher");
      let removal: TextEdit;
      // Remove the smallest thing that leaves no empty container behind: the entry, else its
      // group, else the event's array, else the whole "hooks" object. A group with keys of its
      // own (not just matcher and hooks) is the user's: only our entry goes.
      if (list.items.length > 1 || !onlyOurs) removal = removeEdit(list, ei);
      else if (groups.items.length > 1) removal = removeEdit(groups, gi);
      else if (hooksNode.members.length > 1) {
        removal = removeEdit(
          hooksNode,
          hooksNode.members.findIndex((m) => m.value === groups),
        );
      } else removal = removeEdit(root, root.members.findIndex((m) => m.value === hooksNode));
      out.push({
        event,
        hook,
        matcher,
        command: (commandNode as { value: string }).value,
        timeout: member(entry, "timeout")?.value,
        async: isTrue(member(entry, "async")?.value),
        commandNode,
        removal,
      });
    });
  });
}

function isTrue(node: JsonNode | undefined): boolean {
  return node?.kind === "literal" && node.value === true;
}

/**
 * The hook name an entry runs when the entry is ours, else null: `type` `"command"`, a
 * `command` whose first word is a rehydrate binary (file name containing `rehydrate`, or one of
 * `known` as written) followed by exactly one hook name, or exec form with `args: [hook]`.
 */
export function ourHook(entry: JsonObjectNode, known: readonly string[]): string | null {
  const type = member(entry, "type")?.value;
  const command = member(entry, "command")?.value;
  if (type?.kind !== "string" || type.value !== "command" || command?.kind !== "string") return null;
  const args = member(entry, "args")?.value;
  if (args !== undefined) {
    if (args.kind !== "array" || args.items.length !== 1 || args.items[0].kind !== "string") return null;
    const hook = args.items[0].value;
    return HOOK_SET.has(hook) && isOurBinary(command.value, firstWord(command.value + " ").word, known) ? hook : null;
  }
  return commandHook(command.value, known);
}

/**
 * The hook a command line runs when it is one of ours (`<rehydrate binary> <hook>`, or `<hook>
 * --agent <client>` as a Codex install writes it; guarded or not), else null.
 */
export function commandHook(command: string, known: readonly string[]): string | null {
  const { raw, word, rest } = firstWord(unguard(command).command);
  const hook = AGENT_SUFFIX.exec(rest.trim())?.[1] ?? "";
  if (!HOOK_SET.has(hook) || !/^\s/.test(rest)) return null;
  return isOurBinary(raw, word, known) ? hook : null;
}

/** A hook name alone, or followed by the client it serves. */
const AGENT_SUFFIX = /^(\S+)(?:\s+--agent\s+(?:codex|claude))?$/;

function isOurBinary(raw: string, word: string, known: readonly string[]): boolean {
  if (known.includes(raw)) return true;
  const base = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1).toLowerCase();
  return base.includes("rehydrate");
}

/**
 * Splits off the first shell word: `raw` as written, `word` with quotes removed (variables stay
 * as text), and the rest of the line.
 */
export function firstWord(command: string): { raw: string; word: string; rest: string } {
  let i = 0;
  while (i < command.length && (command[i] === " " || command[i] === "\t")) i++;
  const start = i;
  let word = "";
  while (i < command.length) {
    const c = command[i];
    if (c === " " || c === "\t" || c === "\n") break;
    if (c === '"') {
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) i++;
        word += command[i++];
      }
      i++;
    } else if (c === "'") {
      i++;
      while (i < command.length && command[i] !== "'") word += command[i++];
      i++;
    } else if (c === "\\" && i + 1 < command.length) {
      word += command[i + 1];
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  return {
    raw: command.slice(start, Math.min(i, command.length)),
    word,
    rest: command.slice(Math.min(i, command.length)),
  };
}

/** One entry of ours found in a settings file. */
export interface OurEntry {
  event: string;
  hook: string;
  matcher: string | undefined;
  command: string;
  /** The `timeout` value when it is a number. */
  timeout: number | undefined;
  /** True when the entry says `"async": true` (Claude Code runs it in the background). */
  async: boolean;
  /** True when the command is behind the guard of a shared install ({@linkcode hookCommand}). */
  guarded: boolean;
}

/** Every entry of ours in a settings text (none for a missing file), or the parse error. */
export function listOurEntries(
  text: string | null,
  options: { knownBinaries?: readonly string[] } = {},
): { entries: OurEntry[] } | { error: { code: PlanErrorCode; line: number; column: number; message: string } } {
  if (text === null) return { entries: [] };
  const parsed = parseJsonTree(text);
  if (parsed.error) return { error: parsed.error };
  const root = parsed.value!;
  if (root.kind !== "object") {
    return { error: { code: "not_object", line: 1, column: 1, message: "The settings file is not a JSON object" } };
  }
  const hooksNode = member(root, "hooks")?.value;
  if (hooksNode === undefined) return { entries: [] };
  if (hooksNode.kind !== "object") {
    return {
      error: { code: "hooks_not_object", line: 1, column: 1, message: '"hooks" in the settings file is not an object' },
    };
  }
  const found: Ours[] = [];
  for (const m of hooksNode.members) {
    if (m.value.kind === "array") collect(root, hooksNode, m.key, m.value, options.knownBinaries ?? [], found);
  }
  return {
    entries: found.map((o) => ({
      event: o.event,
      hook: o.hook,
      matcher: o.matcher,
      command: o.command,
      timeout: o.timeout?.kind === "number" ? o.timeout.value : undefined,
      async: o.async,
      guarded: unguard(o.command).guarded,
    })),
  };
}
