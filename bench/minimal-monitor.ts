/**
 * A yardstick, not a hook: the least a UserPromptSubmit context monitor can do in the benchmark's
 * workspace, written by hand for bench/README.md ("What a minimal monitor costs"). It reads stdin,
 * the compaction record, the `projects/` listing, the monitor state, the checkpoints and a 64 KiB
 * tail of the transcript, writes the monitor state atomically and prints an element: no
 * validation, no redaction, no configuration, paths fixed to the bench's layout. Timing it beside
 * the real hook shows how much of the real hook's cost is the rest.
 *
 *   bun build --compile --minify --bytecode --compile-jit-policy=30 --no-compile-autoload-dotenv \
 *     --no-compile-autoload-bunfig --no-compile-autoload-tsconfig --no-compile-autoload-package-json \
 *     bench/minimal-monitor.ts --outfile /tmp/minimal/user-prompt-submit
 *
 * (build_flags.ts's COMPILE_FLAGS plus `--bytecode`: the flags of the hooks and the floor.)
 *   bun bench/ab.ts user-prompt-submit@quiet 200 /tmp/minimal --runs 61
 */
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";

type Json = Record<string, unknown>;
const input = JSON.parse(readFileSync(0, "utf8")) as { session_id: string; transcript_path: string };
const state = process.env.REHYDRATE_STATE_DIR ?? "";
const ws = process.env.CLAUDE_PROJECT_DIR ?? "";
let rec: Json | null = null;
try {
  rec = JSON.parse(readFileSync(`${state}/compactions/${input.session_id}.json`, "utf8"));
} catch { /* none */ }
try {
  statSync(`${state}/compactions/${input.session_id}.${rec?.compaction_id}.delivered`);
} catch { /* not delivered */ }
const projects = readdirSync(`${ws}/projects`).filter((p) => {
  try {
    return statSync(`${ws}/projects/${p}/ORCHESTRATION.yaml`).isFile();
  } catch {
    return false;
  }
});
let prior: Json | null = null;
try {
  prior = JSON.parse(readFileSync(`${ws}/.jerry/context-monitor-state.json`, "utf8"));
} catch { /* first prompt */ }
const checkpoints = readdirSync(`${ws}/.jerry/checkpoints`).filter((f) => /^cx-\d+-checkpoint\.json$/.test(f))
  .map((f) => JSON.parse(readFileSync(`${ws}/.jerry/checkpoints/${f}`, "utf8")) as Json);
const fd = openSync(input.transcript_path, "r");
const size = fstatSync(fd).size;
const buf = Buffer.allocUnsafe(65536);
const n = readSync(fd, buf, 0, 65536, Math.max(0, size - 65536));
closeSync(fd);
const lines = buf.toString("utf8", 0, n).split("\n");
let tokens = 0;
for (let i = lines.length - 1; i > 0; i--) {
  if (!lines[i].includes('"usage"') || !lines[i].includes('"assistant"')) continue;
  try {
    const u = JSON.parse(lines[i]).message.usage;
    tokens = u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    break;
  } catch { /* a cut line */ }
}
const out = {
  schema_version: 1,
  session_id: input.session_id,
  level: "WARNING",
  tokens,
  updated_at: new Date().toISOString(),
  checkpoints: checkpoints.length,
  runs: projects.length,
  prior: prior?.level ?? null,
};
const tmp = `${ws}/.jerry/.cms.${process.pid}.tmp`;
writeFileSync(tmp, JSON.stringify(out, null, 2), { mode: 0o600 });
renameSync(tmp, `${ws}/.jerry/context-monitor-state.json`);
writeSync(
  1,
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "UserPromptSubmit",
      additionalContext: `<context-monitor level="WARNING" tokens="${tokens}"/>`,
    },
  }),
);
