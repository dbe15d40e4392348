// The properties every hook run must have, whatever its input: checked on the in-process
// outcome and on a spawned binary's exit status and output alike.
import { SaxesParser } from "saxes";
import type { HookEventName } from "../../lib/hook/hook_types.ts";
import { CANARY } from "./_world.ts";
import { MENTION_CANARY } from "./_adversarial.ts";

const STACK =
  /^\s+at \S.*(:\d+:\d+\)?|\(native\))$|\b(TypeError|RangeError|ReferenceError|SyntaxError|InternalError): |\bnode:internal|\bbun:/m;
const CONTEXT_EVENTS = new Set<HookEventName>(["SessionStart", "UserPromptSubmit", "PostToolUse"]);

/** Returns the violated properties (empty when the run is fine). */
export function checkOutput(event: HookEventName, status: number | null, stdout: string, stderr = ""): string[] {
  const bad: string[] = [];
  if (status !== 0) bad.push(`exit status ${status}`);
  if (STACK.test(stdout)) bad.push("stack trace on stdout");
  if (STACK.test(stderr)) bad.push("stack trace on stderr");
  if (stdout.includes(CANARY) || stderr.includes(CANARY)) {
    bad.push("content of a file outside the workspace in the output");
  }
  if (stdout.includes(MENTION_CANARY) || stderr.includes(MENTION_CANARY)) {
    bad.push("a file outside the workspace that the transcript only mentioned is named in the output");
  }
  if (stdout === "") return bad;
  if (event === "PreCompact") {
    if (/^\s*[{[]/.test(stdout)) bad.push("PreCompact printed JSON");
    return bad;
  }
  let reply: unknown;
  try {
    reply = JSON.parse(stdout);
  } catch {
    bad.push("stdout is not one JSON value");
    return bad;
  }
  if (reply === null || typeof reply !== "object" || Array.isArray(reply)) {
    bad.push("stdout is not a JSON object");
    return bad;
  }
  bad.push(...checkReply(event, reply as Record<string, unknown>));
  return bad;
}

function checkReply(event: HookEventName, r: Record<string, unknown>): string[] {
  const keys = Object.keys(r).sort().join(",");
  const specific = r.hookSpecificOutput as Record<string, unknown> | undefined;
  if (CONTEXT_EVENTS.has(event)) {
    // After a compaction's context, one line for the user (never the model): ours, one short line.
    if (
      (keys !== "hookSpecificOutput" && keys !== "hookSpecificOutput,systemMessage") || !specific ||
      Object.keys(specific).sort().join(",") !== "additionalContext,hookEventName"
    ) return [`reply shape ${JSON.stringify(r).slice(0, 200)}`];
    if (
      "systemMessage" in r &&
      (typeof r.systemMessage !== "string" || !/^rehydrate: [^\n]{1,480}$/.test(r.systemMessage))
    ) return [`systemMessage ${JSON.stringify(r.systemMessage).slice(0, 200)}`];
    if (specific.hookEventName !== event) return ["hookEventName of another event"];
    if (typeof specific.additionalContext !== "string" || specific.additionalContext === "") {
      return ["additionalContext is not a non-empty string"];
    }
    return checkContext(specific.additionalContext);
  }
  if (event === "PreToolUse") {
    if (keys !== "hookSpecificOutput" || !specific || specific.hookEventName !== "PreToolUse") {
      return [`reply shape ${JSON.stringify(r).slice(0, 200)}`];
    }
    if (!["allow", "deny", "ask"].includes(String(specific.permissionDecision))) {
      return ["permissionDecision is not allow, deny or ask"];
    }
    if (typeof specific.permissionDecisionReason !== "string") return ["permissionDecisionReason is not a string"];
    return [];
  }
  if (event === "Stop") {
    if (keys !== "decision,reason" || r.decision !== "block" || typeof r.reason !== "string" || r.reason === "") {
      return [`reply shape ${JSON.stringify(r).slice(0, 200)}`];
    }
    return [];
  }
  return [`${event} printed JSON (it never replies)`];
}

/** Elements we build at the top of an additionalContext; a file or transcript must never add one. */
const OURS = ["session-context", "nexus-context", "compaction-alert"] as const;

/** The opening of the everyday layer's second part (issue #35): the one element allowed twice. */
const FOLLOW_UP = '<session-context source="rehydrate" part="after-summary"';

/**
 * The injected context: at most one of each of our elements, each well-formed XML; the everyday
 * `<session-context>` may come twice when one of them is the follow-up (`part="after-summary"`:
 * a prompt that re-delivers a compaction's context gives both parts). The parts around them (the
 * dispatch pointer, the orchestration resume prompt) are plain text; an opening or closing tag of
 * ours in them is a fake element.
 */
export function checkContext(text: string): string[] {
  const bad: string[] = [];
  for (const name of OURS) {
    const opens = count(text, `<${name}`);
    const closes = count(text, `</${name}>`);
    const allowed = name === "session-context" && count(text, FOLLOW_UP) === 1 ? 2 : 1;
    if (opens > allowed || closes > allowed) bad.push(`${opens} <${name}> and ${closes} </${name}> in the context`);
    if (opens !== closes) {
      bad.push(`<${name}> opened ${opens} times and closed ${closes} times`);
      continue;
    }
    if (opens === 0) continue;
    // Each element on its own: two of them in a row are not one document.
    for (let from = text.indexOf(`<${name}`); from !== -1; from = text.indexOf(`<${name}`, from + 1)) {
      const end = text.indexOf(`</${name}>`, from);
      if (end === -1) break;
      bad.push(...parseXml(text.slice(from, end + name.length + 3)));
      from = end;
    }
  }
  return bad;
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) n++;
  return n;
}

function parseXml(xml: string): string[] {
  const bad: string[] = [];
  const parser = new SaxesParser();
  let depth = 0;
  parser.on("error", (e) => {
    if (bad.length === 0) bad.push(`injected XML does not parse: ${e.message.slice(0, 120)}`);
  });
  parser.on("opentag", (tag) => {
    if (depth > 1 && (OURS as readonly string[]).includes(tag.name)) bad.push(`nested <${tag.name}>`);
    depth++;
  });
  parser.on("closetag", () => {
    depth--;
  });
  try {
    parser.write(`<root>${xml}</root>`).close();
  } catch (e) {
    if (bad.length === 0) bad.push(`injected XML does not parse: ${(e as Error).message.slice(0, 120)}`);
  }
  return bad;
}
