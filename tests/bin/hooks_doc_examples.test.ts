// Every hook example in the docs is run: the stdin block is piped to the compiled binary in a
// sandbox (a copy of the sample named by the example), after the hooks the example says ran before
// it, and the stdout block must be what the binary printed. Paths, times and ids are normalised
// to the docs' placeholders. docs/hooks.md holds one example per hook binary; the README and the
// workflow pages hold more. UPDATE_GOLDEN=1 rewrites the stdout blocks from real runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, HOOKS, ROOT, run } from "./_bin.ts";
import { writeDemoTranscript } from "../../examples/demo_transcript.ts";

/** The pages whose examples are run, each with the fewest examples it must hold. */
const PAGES: [string, number][] = [
  ["docs/hooks.md", HOOKS.length],
  ["README.md", 3],
  ["docs/orchestration.md", 1],
  ["docs/dispatch.md", 1],
];
const WORKSPACE = "/home/you/site";
const TRANSCRIPT = "/home/you/.claude/projects/-home-you-site/8f14e45f-ea4b-4b1c-9d5e-0c1a2b3c4d5e.jsonl";
const EXAMPLE =
  /<!-- example: ([a-z-]+) sample=([a-z]+)(?: after=([a-z,-]+))? -->\n[\s\S]*?```json\n([\s\S]*?)```\n[\s\S]*?```(?:json|text)\n([\s\S]*?)```\n<!-- \/example -->/g;

interface Example {
  hook: string;
  sample: string;
  after: string[];
  stdin: string;
  stdout: string;
}

function examples(text: string): Example[] {
  return [...text.matchAll(EXAMPLE)].map((m) => ({
    hook: m[1],
    sample: m[2],
    after: m[3] ? m[3].split(",") : [],
    stdin: m[4],
    stdout: m[5],
  }));
}

function sandbox(sample: string): { project: string; transcript: string; env: Record<string, string | undefined> } {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-docs-"));
  const project = join(tmp, "site");
  cpSync(join(ROOT, "examples", sample), project, { recursive: true });
  const home = join(tmp, "home");
  mkdirSync(home);
  const transcript = join(tmp, "transcript.jsonl");
  if (sample === "workspace") {
    writeDemoTranscript(transcript, { projectDir: project, sessionId: "8f14e45f-ea4b-4b1c-9d5e-0c1a2b3c4d5e" });
  } else {
    // A model with a 200,000-token window (claude-opus-4-8 and later have 1M of their own): the
    // orchestration sample at 171,000 tokens (85.5 %, the monitor's CRITICAL), the everyday one at
    // 140,000, 83 % of the way to 167,000, where Claude Code compacts that window.
    const tokens = sample === "everyday" ? 140_000 : 171_000;
    const usage = {
      input_tokens: 8,
      cache_creation_input_tokens: 1_992,
      cache_read_input_tokens: tokens - 2_000,
      output_tokens: 300,
    };
    writeFileSync(
      transcript,
      JSON.stringify({
        type: "assistant",
        isSidechain: false,
        uuid: "a1",
        message: { id: "msg_1", model: "claude-opus-4-6", role: "assistant", content: [], usage },
      }) + "\n",
    );
  }
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_STATE_DIR: join(tmp, "state"),
  };
  if (sample === "worker") env.REHYDRATE_DISPATCH_FILE = join(project, "dispatch-task-42.md");
  return { project, transcript, env };
}

function normalise(out: string, box: { project: string; transcript: string }): string {
  return out
    .replaceAll(box.project, WORKSPACE)
    .replaceAll(box.transcript, TRANSCRIPT)
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "2026-11-21T10:00:00.000Z")
    .replace(/\b[0-9a-z]{8}-[0-9a-f]{12}\b/g, "mwqa3dpc-0123456789ab")
    // The session's mark is drawn anew in each state directory (issue #36, I4).
    .replace(/mark=(\\?)"[0-9a-f]{16}(\\?)"/g, 'mark=$1"9f03a1c2b4d5e6f7$2"');
}

test("docs/hooks.md has an example for every hook binary", () => {
  const hooks = new Set(examples(readFileSync(join(ROOT, "docs", "hooks.md"), "utf8")).map((e) => e.hook));
  for (const h of HOOKS) assert.ok(hooks.has(h), `no example for ${h} in docs/hooks.md`);
});

for (const [page, fewest] of PAGES) {
  test(`every hook example in ${page} prints what the page says`, () => {
    const file = join(ROOT, page);
    let text = readFileSync(file, "utf8");
    const found = examples(text);
    assert.ok(found.length >= fewest, `${page} has ${found.length} examples, expected at least ${fewest}`);
    for (const ex of found) {
      const box = sandbox(ex.sample);
      const real = (s: string) => s.replaceAll(TRANSCRIPT, box.transcript).replaceAll(WORKSPACE, box.project);
      const input = JSON.parse(real(ex.stdin));
      for (const before of ex.after) {
        const event = { "pre-compact": "PreCompact", "session-start": "SessionStart" }[before]!;
        const extra = before === "session-start"
          ? { source: "compact" }
          : { trigger: "manual", custom_instructions: null };
        const r = run(bin(before), [], {
          stdin: JSON.stringify({
            session_id: input.session_id,
            transcript_path: input.transcript_path,
            cwd: input.cwd,
            hook_event_name: event,
            ...extra,
          }),
          env: box.env,
          cwd: box.project,
        });
        assert.equal(r.status, 0, before);
      }
      const r = run(bin(ex.hook), [], { stdin: JSON.stringify(input), env: box.env, cwd: box.project });
      assert.equal(r.status, 0, ex.hook);
      const trimmed = r.stdout.trim();
      const shown = trimmed === ""
        ? "(no output)"
        : trimmed.startsWith("{")
        ? JSON.stringify(JSON.parse(trimmed), null, 2)
        : trimmed;
      const got = normalise(shown, box) + "\n";
      if (process.env.UPDATE_GOLDEN === "1") {
        const at = text.indexOf(ex.stdout, text.indexOf(`<!-- example: ${ex.hook} sample=${ex.sample}`));
        text = text.slice(0, at) + got + text.slice(at + ex.stdout.length);
        writeFileSync(file, text);
        continue;
      }
      assert.equal(got, ex.stdout, `${page}: example for ${ex.hook} (UPDATE_GOLDEN=1 rewrites it)`);
    }
  });
}
