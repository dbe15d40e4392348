/**
 * Private helpers of the session layer shared by the two snapshot builders (Claude Code's
 * transcript, `snapshot.ts`; Codex's rollout, `codex_snapshot.ts`).
 *
 * @module
 */
import { redact } from "../redact/redact.ts";
import { cutText } from "../redact/quote_line.ts";
import type { GitBranch } from "./git_branch.ts";

/** The branch as the snapshot keeps it: redacted like every other text, within the schema's 255 characters. */
export function safeGit(git: GitBranch | null): GitBranch | null {
  if (git === null || !("branch" in git)) return git;
  const branch = cutText(redact(git.branch), 255);
  return branch === "" ? null : { branch };
}

/** `value` as a whole number in [0, `max`] (the schema's bound), `fallback` when not a number. */
export function clamp(value: number | undefined, fallback: number, max: number): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.min(max, Math.floor(value))) : fallback;
}
