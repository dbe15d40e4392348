/** rehydrate's own elements, as a delivered text names them: the order they are listed in. */
const ELEMENTS = [
  "session-context",
  "user-requests",
  "reply-to",
  "compact-instructions",
  "commands",
  "plan",
  "tasks",
  "constraints",
  "edited-files",
  "nexus-context",
  "compaction-alert",
  "context-monitor",
] as const;

/** A command name shown to the user: a short line of plain words, nothing that could be markup. */
const PLAIN_COMMAND = /^[A-Za-z0-9_ ./:=@+,-]{1,40}$/;

/** What a delivered text holds, told from the text itself. */
export interface RestoreDescription {
  /** rehydrate's elements in it, each once, in {@linkcode ELEMENTS}' order. */
  elements: string[];
  /**
   * What came back, in words, without any transcript text but a short plain command name:
   * `your latest request, 1 command (failing: npm test) and the plan file`; "" for nothing.
   */
  summary: string;
}

/**
 * Describes a text a hook gave the model after a compaction (SessionStart's context, a
 * re-delivery, the first prompt's follow-up): which of rehydrate's elements it holds and, in a few
 * words, what came back, for the line shown to the user and for `rehydrate status`. It reads the
 * text rehydrate built, in which every quoted piece is XML-escaped, so an element's name is found
 * only where rehydrate wrote it: the words are counts and kinds, never quoted text, but for the
 * name of a failing command when it is short and plain (`npm test`, `go test ./...`).
 *
 * @example
 * ```ts
 * describeRestore('<session-context source="rehydrate">…<request latest="true">fix it</request>…</session-context>');
 * // { elements: ["session-context", "user-requests"], summary: "your latest request" }
 * ```
 */
export function describeRestore(text: string): RestoreDescription {
  const elements = ELEMENTS.filter((name) => has(text, name));
  const parts: string[] = [];
  if (text.includes('<request latest="true"')) parts.push("your latest request");
  if (has(text, "reply-to")) parts.push("the question your reply answers");
  if (has(text, "compact-instructions")) parts.push("your /compact instructions");
  const commands = [...text.matchAll(/<command( [^>]*)?>([^<]*)<\/command>/g)];
  if (commands.length > 0) {
    const failing = commands.filter((m) => {
      const exit = /\bexit="(-?\d+)"/.exec(m[1] ?? "")?.[1];
      return (exit !== undefined && exit !== "0") || /\bfailure="/.test(m[1] ?? "");
    });
    const name = failing.length === 1 ? unescape(failing[0][2]) : "";
    const how = failing.length === 0
      ? ""
      : failing.length === 1 && PLAIN_COMMAND.test(name)
      ? ` (failing: ${name})`
      : ` (${failing.length} failing)`;
    parts.push(`${count(commands.length, "command")}${how}`);
  }
  if (has(text, "plan")) parts.push("the plan file");
  const tasks = occurrences(text, "<task ");
  if (tasks > 0) parts.push(count(tasks, "open task"));
  const earlier = occurrences(text, "<request") - (text.includes('<request latest="true"') ? 1 : 0);
  if (earlier > 0) parts.push(count(earlier, "earlier request"));
  if (has(text, "constraints")) parts.push("your standing instructions");
  const files = has(text, "edited-files") ? occurrences(text, "<file ") : 0;
  if (files > 0) parts.push(count(files, "edited file"));
  if (has(text, "nexus-context")) parts.push("the project's context");
  if (has(text, "compaction-alert")) parts.push("the orchestration run's alert");
  return { elements: [...elements], summary: joinWords(parts) };
}

function has(text: string, name: string): boolean {
  return text.includes(`<${name} `) || text.includes(`<${name}>`) || text.includes(`<${name}/`);
}

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function joinWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** The five entities rehydrate's escaper writes; a numeric one stays as it is (then the name is not plain). */
function unescape(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" })[e] ?? "",
  );
}
