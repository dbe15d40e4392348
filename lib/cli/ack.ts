import type { CliIo } from "./main.ts";
import { acknowledgeCheckpoints } from "../orchestration/ack.ts";
import { parseOrchCliArgs } from "./_orchestration.ts";
import { relativePath } from "../orchestration/format.ts";
import { asksHelp, failure, usageError } from "./_usage.ts";

const HELP = `rehydrate ack: mark every unacknowledged compaction checkpoint acknowledged

Usage:
  rehydrate ack [--project DIR]

Sets acknowledged=true (and acknowledged_at) in each <stateDir>/checkpoints/cx-NNN-checkpoint.json
of the workspace that is not yet acknowledged (stateDir is orchestration.stateDir, default .jerry).
This is what the compaction alert asks for; it stops the alert and its reminders. A checkpoint
that cannot be parsed is renamed to cx-NNN-checkpoint.json.corrupt.

Options:
  --project DIR   the workspace (default: $CLAUDE_PROJECT_DIR, else the current directory)
  -h, --help      show this help
  -v, --version   print the version

Examples:
  rehydrate ack
  rehydrate ack --project ~/work/oss-release
`;

/**
 * The `rehydrate ack [--project DIR]` verb: acknowledges every unacknowledged checkpoint of the
 * workspace and prints what it did. Returns the exit code: 0 on success (also when there was
 * nothing to do), 1 with a one-line error on stderr when the workspace or a write fails, 2 on a
 * usage error.
 *
 * @example
 * ```ts
 * import { cliAck } from "./ack.ts";
 *
 * const code = cliAck(["--project", "/work/repo"], { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
 * ```
 */
export function cliAck(args: string[], io: CliIo): number {
  if (asksHelp(args)) {
    io.out(HELP);
    return 0;
  }
  const parsed = parseOrchCliArgs(args, process.env);
  if ("error" in parsed) {
    return parsed.usage ? usageError(io, "ack", parsed.error) : failure(io, "ack", parsed.error);
  }
  if (parsed.help) {
    io.out(HELP);
    return 0;
  }
  let result;
  try {
    result = acknowledgeCheckpoints(parsed.projectDir, { settings: parsed.settings });
  } catch (err) {
    return failure(io, "ack", (err as Error).message);
  }
  const dir = relativePath(parsed.projectDir, result.dir);
  if (result.acknowledged.length === 0 && result.setAside.length === 0) {
    io.out(`No unacknowledged checkpoints in ${dir}\n`);
    return 0;
  }
  if (result.acknowledged.length > 0) io.out(`Acknowledged ${result.acknowledged.join(", ")} in ${dir}\n`);
  if (result.setAside.length > 0) {
    io.out(`Set aside corrupt ${result.setAside.join(", ")} (renamed to *.json.corrupt)\n`);
  }
  return 0;
}
