import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { rereadPostToolUse } from "../../../lib/dispatch/post_tool_use.ts";
import { rereadPreCompact } from "../../../lib/dispatch/pre_compact.ts";
import { roleRereadItems } from "../../../lib/dispatch/role_items.ts";
import { rereadPreToolUse } from "../../../lib/reread/pre_tool_use.ts";
import { rereadStop } from "../../../lib/reread/stop.ts";
import { sessionRole } from "../../../lib/dispatch/session_role.ts";
import { dispatchSessionStart } from "../../../lib/dispatch/session_start.ts";
import { asJson, DISPATCH, payload, PROJECT, ROOT, run, sandbox } from "../_reread_harness.ts";

const SID = "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf";
const FIX_LOGIN = join(PROJECT, "docs", "handler-dispatches", "fix-login.md");
const QUEUE = join(DISPATCH, "elsewhere", "queue-worker.md");
const RATE = join(PROJECT, "docs", "handler-dispatches", "api-rate-limit.md");
const STATE_FILE = join(PROJECT, "handler-state.md");

const skillUse = (skill: string, sid = SID) =>
  payload("PostToolUse-Read.json", {
    session_id: sid,
    tool_name: "Skill",
    tool_input: { skill },
    tool_response: { success: true },
  });
const preCompact = (sid = SID) => payload("PreCompact-auto.json", { session_id: sid });
const preToolUse = (sid = SID, patch: Record<string, unknown> = {}) =>
  payload("PreToolUse-Read.json", { session_id: sid, tool_name: "Bash", tool_input: { command: "ls" }, ...patch });
const readOf = (file: string, sid = SID) =>
  payload("PreToolUse-Read.json", { session_id: sid, tool_input: { file_path: file } });
const stop = (sid = SID, active = false) => payload("Stop.json", { session_id: sid, stop_hook_active: active });

type Env = Record<string, string>;
const postToolUse = (stdin: string, env: Env) => run("PostToolUse", rereadPostToolUse, stdin, env);
const compact = (stdin: string, env: Env) =>
  run("PreCompact", (ctx) => rereadPreCompact(ctx, undefined, { roleItems: roleRereadItems }), stdin, env);
const toolUse = (stdin: string, env: Env) => run("PreToolUse", rereadPreToolUse, stdin, env, { reply: asJson });
const stopping = (stdin: string, env: Env) => run("Stop", rereadStop, stdin, env, { reply: asJson });

function newAjv() {
  const Ctor = ((Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020) as new (
    o: Record<string, unknown>,
  ) => {
    addFormat(name: string, f: (s: string) => boolean): unknown;
    compile(schema: unknown): ((data: unknown) => boolean) & { errors?: unknown };
  };
  const ajv = new Ctor({ allErrors: true, strict: true });
  ajv.addFormat("date-time", (s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s));
  return ajv;
}

describe("handler chain", () => {
  test("the handler skill registers the session, PreCompact marks it, the first tool call is denied once, the second passes", async () => {
    const { env, state } = sandbox();
    await postToolUse(skillUse("handler"), env);
    assert.ok(existsSync(join(state, "sessions", `${SID}.role.json`)));

    const pc = await compact(preCompact(), env);
    assert.equal(pc.outcome.stdout, "", "PreCompact prints nothing: its stdout would go to the summarizer");
    assert.match(String((pc.value as { compactionId: string }).compactionId), /^[a-z0-9]+-[0-9a-f]{12}$/);
    assert.ok(existsSync(join(state, "markers", `${SID}.json`)));

    const first = await toolUse(preToolUse(), env);
    const reply = JSON.parse(first.outcome.stdout);
    assert.equal(reply.hookSpecificOutput.hookEventName, "PreToolUse");
    assert.equal(reply.hookSpecificOutput.permissionDecision, "deny");
    const reason: string = reply.hookSpecificOutput.permissionDecisionReason;
    assert.ok(reason.includes(STATE_FILE), "the reason names the handler state file");
    assert.ok(
      reason.includes(FIX_LOGIN) && reason.includes(QUEUE) && reason.includes(RATE),
      "and every active dispatch file",
    );
    assert.ok(
      !reason.includes("old-cleanup.md") && !reason.includes("notes.md"),
      "but no finished or status-less file",
    );
    assert.ok(reason.indexOf(STATE_FILE) < reason.indexOf(FIX_LOGIN), "state file first");
    assert.equal(first.outcome.exitCode, 0);
    assert.ok(!existsSync(join(state, "markers", `${SID}.json`)), "the marker is consumed");

    const second = await toolUse(preToolUse(), env);
    assert.deepEqual(second.outcome, { stdout: "", exitCode: 0 });
  });

  test("the marker's files, in order, and the whole marker match schemas/reread_marker.v1.json", async () => {
    const { env, state } = sandbox();
    await postToolUse(skillUse("handler"), env);
    const pc = await compact(payload("PreCompact-manual.json", { session_id: SID }), env);
    const marker = JSON.parse(readFileSync(join(state, "markers", `${SID}.json`), "utf8"));
    assert.deepEqual(marker.files, [STATE_FILE, FIX_LOGIN, QUEUE, RATE]);
    assert.equal(marker.session_type, "handler");
    assert.equal(marker.trigger, "manual");
    assert.equal(marker.compaction_id, (pc.value as { compactionId: string }).compactionId);
    const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "reread_marker.v1.json"), "utf8"));
    const validate = newAjv().compile(schema);
    assert.ok(validate(marker), JSON.stringify(validate.errors));
  });

  test("Stop is the failsafe: it blocks once with the same reason, then is silent", async () => {
    const { env } = sandbox();
    await postToolUse(skillUse("handler"), env);
    await compact(preCompact(), env);
    const blocked = await stopping(stop(), env);
    const reply = JSON.parse(blocked.outcome.stdout);
    assert.equal(reply.decision, "block");
    assert.ok(reply.reason.includes(STATE_FILE));
    assert.equal(reply.hookSpecificOutput, undefined);
    assert.deepEqual((await stopping(stop(), env)).outcome, { stdout: "", exitCode: 0 });
    assert.deepEqual((await toolUse(preToolUse(), env)).outcome.stdout, "", "PreToolUse finds nothing left either");
  });

  test("Stop with stop_hook_active true does nothing and leaves the marker for the next tool call", async () => {
    const { env } = sandbox();
    await postToolUse(skillUse("handler"), env);
    await compact(preCompact(), env);
    assert.equal((await stopping(stop(SID, true), env)).outcome.stdout, "");
    assert.match((await toolUse(preToolUse(), env)).outcome.stdout, /"deny"/);
  });

  test("the PreToolUse and Stop reasons are the same text", async () => {
    const a = sandbox();
    const b = sandbox();
    for (const { env } of [a, b]) {
      await postToolUse(skillUse("handler"), env);
      await compact(preCompact(), env);
    }
    const deny =
      JSON.parse((await toolUse(preToolUse(), a.env)).outcome.stdout).hookSpecificOutput.permissionDecisionReason;
    const block = JSON.parse((await stopping(stop(), b.env)).outcome.stdout).reason;
    assert.equal(deny, block);
  });

  test("a plugin-qualified skill name and a leading slash register too; another skill does not", async () => {
    for (
      const [skill, handler] of [["tools:handler", true], ["/handler", true], ["handlers", false], [
        "review",
        false,
      ]] as const
    ) {
      const { env } = sandbox();
      await postToolUse(skillUse(skill), env);
      const role = await run("PostToolUse", sessionRole, skillUse(skill), env);
      assert.equal(role.value?.role, handler ? "handler" : "regular", skill);
    }
  });

  test("a Read tool call does not register a handler, and dispatch.enabled false turns the workflow off", async () => {
    const { env, state } = sandbox();
    await postToolUse(payload("PostToolUse-Read.json"), env);
    assert.ok(!existsSync(join(state, "sessions", `${SID}.role.json`)));
    const project = mkdtempSync(join(tmpdir(), "rehydrate-off-"));
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ dispatch: { enabled: false } }));
    const off = { ...env, CLAUDE_PROJECT_DIR: project };
    await postToolUse(skillUse("handler"), off);
    assert.ok(!existsSync(join(state, "sessions", `${SID}.role.json`)));
    assert.equal((await compact(preCompact(), off)).value, null);
  });

  test("reread.enforce false records the compaction but writes no marker; true adds a project's files", async () => {
    const project = mkdtempSync(join(tmpdir(), "rehydrate-enforce-"));
    mkdirSync(join(project, ".claude"));
    const { env, state } = sandbox({ CLAUDE_PROJECT_DIR: project });
    await postToolUse(skillUse("handler"), env);
    writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ reread: { enforce: false } }));
    const pc = await compact(preCompact(), env);
    assert.ok(pc.value !== null && pc.value !== undefined);
    assert.ok(!existsSync(join(state, "markers", `${SID}.json`)));
    assert.ok(existsSync(join(state, "compactions", `${SID}.json`)));

    const other = "0b7f6c1e-2d3a-4e5f-8a9b-0c1d2e3f4a5b";
    const extra = {
      files: [join(project, "02-projects", "demo", "resume-context.md")],
      reason: "Active project: demo.",
      kind: "project" as const,
    };
    writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ reread: { enforce: "auto" } }));
    await run(
      "PreCompact",
      (ctx) => rereadPreCompact(ctx, extra, { roleItems: roleRereadItems }),
      preCompact(other),
      env,
    );
    assert.ok(!existsSync(join(state, "markers", `${other}.json`)), "auto does not enforce for a project session");
    writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ reread: { enforce: true } }));
    await run(
      "PreCompact",
      (ctx) => rereadPreCompact(ctx, extra, { roleItems: roleRereadItems }),
      preCompact(other),
      env,
    );
    const marker = JSON.parse(readFileSync(join(state, "markers", `${other}.json`), "utf8"));
    assert.equal(marker.session_type, "project");
    assert.deepEqual(marker.files, extra.files);
    assert.ok(marker.reason.includes("Active project: demo."));
  });
});

describe("worker chain", () => {
  test("a worker named by the dispatch path file under $HOME gets its dispatch file in the reason", async () => {
    const { env, home, state } = sandbox();
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "worker-dispatch-path"), FIX_LOGIN + "\n");
    const pc = await compact(preCompact(), env);
    assert.ok(pc.value);
    const marker = JSON.parse(readFileSync(join(state, "markers", `${SID}.json`), "utf8"));
    assert.equal(marker.session_type, "worker");
    assert.deepEqual(marker.files, [FIX_LOGIN]);
    const blocked = JSON.parse((await stopping(stop(), env)).outcome.stdout);
    assert.equal(blocked.decision, "block");
    assert.ok(blocked.reason.includes(FIX_LOGIN));
    assert.match(blocked.reason, /## Progress/);
    assert.doesNotMatch(blocked.reason, /handler-results|checkpoint/, "no reference to the old checkpoint files");
  });

  test("the worker's Read of its dispatch file passes and counts as the re-read", async () => {
    const { env } = sandbox({ REHYDRATE_DISPATCH_FILE: FIX_LOGIN });
    await compact(preCompact(), env);
    const read = await toolUse(readOf(FIX_LOGIN), env);
    assert.deepEqual(read.outcome, { stdout: "", exitCode: 0 });
    assert.equal((await toolUse(preToolUse(), env)).outcome.stdout, "", "nothing left to enforce");
    assert.equal((await stopping(stop(), env)).outcome.stdout, "");
  });

  test("a Read of the dispatch file by a path with . and .. segments also counts", async () => {
    const { env } = sandbox({ REHYDRATE_DISPATCH_FILE: FIX_LOGIN });
    await compact(preCompact(), env);
    const odd = join(PROJECT, "docs", ".", "handler-dispatches", "..", "handler-dispatches", "fix-login.md");
    assert.equal((await toolUse(readOf(odd), env)).outcome.stdout, "");
    assert.equal((await toolUse(preToolUse(), env)).outcome.stdout, "");
  });

  test("a Read of some other file is denied like any tool call", async () => {
    const { env } = sandbox({ REHYDRATE_DISPATCH_FILE: FIX_LOGIN });
    await compact(preCompact(), env);
    const out = JSON.parse((await toolUse(readOf(join(PROJECT, "handler-state.md")), env)).outcome.stdout);
    assert.equal(out.hookSpecificOutput.permissionDecision, "deny");
    assert.ok(out.hookSpecificOutput.permissionDecisionReason.includes(FIX_LOGIN));
  });

  test("the environment variable wins over the path file, a relative path is taken from the project, ~/ from $HOME", async () => {
    const { env, home } = sandbox();
    mkdirSync(join(home, ".claude"), { recursive: true });
    mkdirSync(join(home, "tickets"));
    writeFileSync(join(home, "tickets", "t.md"), "# T\nStatus: active\n\n## Progress\n- started\n");
    writeFileSync(join(home, ".claude", "worker-dispatch-path"), "~/tickets/t.md\n");
    const viaFile = await run("PreToolUse", sessionRole, preToolUse(), env);
    assert.deepEqual(viaFile.value, { role: "worker", dispatchFile: join(home, "tickets", "t.md") });
    const viaEnv = await run("PreToolUse", sessionRole, preToolUse(), {
      ...env,
      REHYDRATE_DISPATCH_FILE: "docs/handler-dispatches/fix-login.md",
    });
    assert.deepEqual(viaEnv.value, { role: "worker", dispatchFile: FIX_LOGIN });
  });

  test("a dispatch path naming a file that does not exist does not make a worker", async () => {
    const { env, home, state } = sandbox();
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "worker-dispatch-path"), "/nonexistent/dispatch.md\n");
    assert.equal((await compact(preCompact(), env)).value, null);
    assert.ok(!existsSync(join(state, "markers")));
  });

  test("dispatchSessionStart() points a worker to its dispatch file with the latest progress, and has a short form", async () => {
    const { env } = sandbox({ REHYDRATE_DISPATCH_FILE: FIX_LOGIN });
    const full =
      (await run("SessionStart", (ctx) => dispatchSessionStart(ctx), payload("SessionStart-compact.json"), env)).value!;
    assert.ok(full.includes(FIX_LOGIN));
    assert.ok(full.includes("status in-progress"));
    assert.ok(full.includes("fix in place, test green"), "the latest progress entry is quoted");
    const short = (await run(
      "SessionStart",
      (ctx) => dispatchSessionStart(ctx, { short: true }),
      payload("SessionStart-compact.json"),
      env,
    )).value!;
    assert.ok(short.includes(FIX_LOGIN));
    assert.ok(!short.includes("test green"));
    assert.ok(short.length < full.length);
  });

  test("dispatchSessionStart() lists a handler's state file and active dispatches", async () => {
    const { env } = sandbox();
    await postToolUse(skillUse("handler"), env);
    const text =
      (await run("SessionStart", (ctx) => dispatchSessionStart(ctx), payload("SessionStart-compact.json"), env)).value!;
    for (const f of [STATE_FILE, FIX_LOGIN, QUEUE, RATE]) assert.ok(text.includes(f), f);
    assert.ok(!text.includes("old-cleanup"));
  });
});

describe("regular session", () => {
  test("a regular session is silent everywhere and leaves no file behind", async () => {
    const { env, state } = sandbox();
    await postToolUse(payload("PostToolUse-Read.json"), env);
    const pc = await compact(preCompact(), env);
    assert.equal(pc.value, null);
    assert.equal(pc.outcome.stdout, "");
    assert.equal((await toolUse(preToolUse(), env)).outcome.stdout, "");
    assert.equal((await stopping(stop(), env)).outcome.stdout, "");
    const text =
      (await run("SessionStart", (ctx) => dispatchSessionStart(ctx), payload("SessionStart-compact.json"), env)).value;
    assert.equal(text, null);
    const left = existsSync(state) ? readdirSync(state).filter((n) => n !== "debug.log") : [];
    assert.deepEqual(left, []);
  });
});
