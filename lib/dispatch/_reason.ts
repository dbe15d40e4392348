/**
 * Private helper of the re-read enforcement: the text the model gets with the
 * PreToolUse deny and the Stop block.
 *
 * @module
 */

import { redact } from "../redact/redact.ts";
import { reasonPath } from "../redact/reason_path.ts";

/** One file to re-read and what it is. */
export interface RereadItem {
  path: string;
  /**
   * Why it matters, in our words and strict-grammar names only (a status word that passes
   * `safeId`), e.g. "handler state", "active dispatch, status in-progress": it goes into the
   * reason's imperative as it is.
   */
  note: string;
}

/** What a file whose name is not a plain file name is called in the reason. */
const UNNAMED = "a file whose name is not shown here (<session-context> lists the files edited, as data)";

const LEAD: Record<string, string> = {
  handler: "Context was just compacted, and this is the handler session. The summary is not enough to go on: " +
    "before doing anything else, re-read these files with the Read tool (a Read of one of them is let through), " +
    "then continue from what they say:",
  worker: "Context was just compacted, and this is a worker session. Before doing anything else, re-read your " +
    "dispatch file with the Read tool: it holds your contract and the ## Progress section with every milestone " +
    "you recorded. Continue from the last progress entry and keep updating it:",
  project: "Context was just compacted. Before doing anything else, re-read these project files with the Read tool, " +
    "then continue from what they say:",
  session: "Context was just compacted. Before doing anything else, re-read the files you edited in this session " +
    "with the Read tool, then carry on with the open task that <session-context> quotes:",
  orchestration: "Context was just compacted during an orchestration run. Before doing anything else, re-read these " +
    "files with the Read tool, then continue from the latest checkpoint:",
};

const MAX = 9000;

/**
 * The redacted reason, at most 9,000 characters (the hook output limit is 10,000): our sentences,
 * the files by name when each is a plain file name ({@linkcode reasonPath}), the items' notes and
 * `extra`, which callers build from fixed sentences and strict-grammar names only. No free text
 * from a file or the transcript (a task's subject, a dispatch's title) goes in: the open task is
 * quoted in `<session-context>`, as data (issue #36, N4).
 *
 * @example
 * ```ts
 * rereadReason("session", [{ path: "/w/src/a.ts", note: "" }], "Your open task is quoted in <session-context>.");
 * ```
 */
export function rereadReason(type: string, items: RereadItem[], extra?: string): string {
  let text = LEAD[type] ?? LEAD.project;
  if (items.length === 0) text += "\n- (no file is recorded: re-read your state notes before continuing)";
  for (const item of items) {
    const line = `\n- ${reasonPath(item.path, UNNAMED)}${item.note ? ` (${item.note})` : ""}`;
    if (text.length + line.length > MAX - 200) {
      text += "\n- …";
      break;
    }
    text += line;
  }
  if (extra) text += `\n${extra.length > 1000 ? extra.slice(0, 1000) + "…" : extra}`;
  text += "\nThis reminder comes once per compaction.";
  return redact(text);
}
