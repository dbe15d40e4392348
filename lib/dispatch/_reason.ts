/**
 * Private helper of the re-read enforcement: the text the model gets with the
 * PreToolUse deny and the Stop block.
 *
 * @module
 */

import { redact } from "../redact/redact.ts";

/** One file to re-read and what it is. */
export interface RereadItem {
  path: string;
  /** Why it matters, e.g. "handler state", "active dispatch: Fix login (in-progress)". */
  note: string;
}

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
    "with the Read tool, then carry on with the open task:",
  orchestration: "Context was just compacted during an orchestration run. Before doing anything else, re-read these " +
    "files with the Read tool, then continue from the latest checkpoint:",
};

const MAX = 9000;

/** The redacted reason, at most 9,000 characters (the hook output limit is 10,000). */
export function rereadReason(type: string, items: RereadItem[], extra?: string): string {
  let text = LEAD[type] ?? LEAD.project;
  if (items.length === 0) text += "\n- (no file is recorded: re-read your state notes before continuing)";
  for (const item of items) {
    const line = `\n- ${item.path}${item.note ? ` (${item.note})` : ""}`;
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
