import { describeRestore } from "./describe_restore.ts";

/**
 * The one line Claude Code shows the user (the hook's `systemMessage`, which never reaches the
 * model) when a compaction's context was given back: what came back, in counts and kinds, from
 * the text that was delivered (`describeRestore`), and, with `options.followUpLater`, that what
 * the summary left out comes with the next prompt. "" when the text is empty.
 *
 * @example
 * ```ts
 * restoreMessage(context, { followUpLater: true });
 * // "rehydrate: restored your latest request and 1 command (failing: npm test); anything the summary leaves out comes with your next prompt"
 * ```
 */
export function restoreMessage(text: string, options: { followUpLater?: boolean } = {}): string {
  if (text === "") return "";
  const { summary } = describeRestore(text);
  const later = options.followUpLater === true && text.includes("<session-context ")
    ? "; anything the summary leaves out comes with your next prompt"
    : "";
  return `rehydrate: restored ${summary || "this session's context"}${later}`;
}
