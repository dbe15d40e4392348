/**
 * Writes the demo's transcripts: realistic Claude Code JSONL sessions (2.1.x row shapes: one
 * assistant row per content block sharing `message.id`, usage on every assistant row, tool results
 * with `toolUseResult`).
 *
 * - {@linkcode writeDemoTranscript}: in the sample workspace, the agent first glances at one
 *   project, then works on another: reads its manifest and steps, edits a file, runs tests and
 *   writes a todo list that names the files it will need next.
 * - {@linkcode writeEverydayTranscript}: in an ordinary repository (examples/everyday), the agent
 *   finds a rounding bug, plans the fix with `TaskCreate`/`TaskUpdate`, edits one file, and the
 *   user asks for the regression test.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface DemoTranscriptOptions {
  projectDir: string;
  sessionId: string;
}

/** Builds the rows of one session: typed messages, assistant blocks and tool calls with their results. */
function transcriptRows(options: DemoTranscriptOptions) {
  const { projectDir, sessionId } = options;
  const rows: unknown[] = [];
  let n = 0;
  let parent: string | null = null;
  let clock = Date.parse("2026-11-21T09:00:00Z");
  const envelope = (type: string) => {
    const uuid = `demo-${(++n).toString().padStart(4, "0")}`;
    const row = {
      parentUuid: parent,
      isSidechain: false,
      userType: "external",
      cwd: projectDir,
      sessionId,
      version: "2.1.197",
      gitBranch: "main",
      type,
      uuid,
      timestamp: new Date(clock += 7000).toISOString(),
    };
    parent = uuid;
    return row;
  };
  let tokens = 24_000;
  const user = (text: string) => rows.push({ ...envelope("user"), message: { role: "user", content: text } });
  const assistant = (blocks: unknown[]) => {
    const id = `msg_demo_${n}`;
    tokens += 9_000;
    for (const block of blocks) {
      rows.push({
        ...envelope("assistant"),
        requestId: `req_demo_${n}`,
        message: {
          model: "claude-opus-4-8",
          id,
          type: "message",
          role: "assistant",
          content: [block],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: 6,
            cache_creation_input_tokens: 2_100,
            cache_read_input_tokens: tokens,
            output_tokens: 420,
          },
        },
      });
    }
  };
  let tool = 0;
  const call = (
    name: string,
    input: Record<string, unknown>,
    result: string,
    toolUseResult?: unknown,
    options: { error?: boolean } = {},
  ) => {
    const id = `toolu_demo_${(++tool).toString().padStart(3, "0")}`;
    assistant([{ type: "tool_use", id, name, input }]);
    const block: Record<string, unknown> = { tool_use_id: id, type: "tool_result", content: result };
    if (options.error) block.is_error = true;
    rows.push({
      ...envelope("user"),
      message: { role: "user", content: [block] },
      toolUseResult: toolUseResult ?? (options.error ? `Error: ${result}` : { stdout: result }),
    });
  };
  const write = (path: string) => writeFileSync(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return { user, assistant, call, write };
}

/** The project-workspace session, for examples/workspace. */
export function writeDemoTranscript(path: string, options: DemoTranscriptOptions): void {
  const p = (rel: string) => join(options.projectDir, rel);
  const web = "02-projects/01-website-redesign";
  const api = "02-projects/02-api-migration";
  const { user, assistant, call, write } = transcriptRows(options);

  user("What's the status of the API migration?");
  call("Read", { file_path: p(`${api}/01-planning/04-steps.md`) }, "# Steps\n- [x] Write overview\n- [ ] Plan", {
    type: "text",
    file: { filePath: p(`${api}/01-planning/04-steps.md`) },
  });
  assistant([{ type: "text", text: "The API migration is still in planning: the plan and steps documents are next." }]);
  user("OK. Let's get back to the website redesign: server-render the pricing table.");
  assistant([{ type: "thinking", thinking: "Load the project manifest first.", signature: "sig" }]);
  call("Skill", { skill: "execute-project" }, "Launching skill: execute-project");
  call("Read", { file_path: p(`${web}/01-planning/resume-context.md`) }, "---\nproject_id: 01-website-redesign\n---", {
    type: "text",
    file: { filePath: p(`${web}/01-planning/resume-context.md`) },
  });
  call(
    "Read",
    { file_path: p(`${web}/01-planning/04-steps.md`) },
    "## Phase 2: Execution\n- [ ] Server-render the pricing table",
    { type: "text", file: { filePath: p(`${web}/01-planning/04-steps.md`) } },
  );
  call(
    "Read",
    { file_path: p(`${web}/01-planning/03-plan.md`) },
    "2. Server-render the pricing table from pricing.json",
    { type: "text", file: { filePath: p(`${web}/01-planning/03-plan.md`) } },
  );
  call(
    "Grep",
    { pattern: "PricingTable", path: p(`${web}/03-working`) },
    `Found 1 file\n${p(`${web}/03-working/pricing-table.tsx`)}`,
  );
  call(
    "Edit",
    {
      file_path: p(`${web}/03-working/pricing-table.tsx`),
      old_string: "<table>",
      new_string: '<table className="pricing">',
    },
    "The file has been updated.",
    {
      filePath: p(`${web}/03-working/pricing-table.tsx`),
      oldString: "<table>",
      newString: '<table className="pricing">',
    },
  );
  call("Bash", {
    command: `npx tsc --noEmit ${p(`${web}/03-working/pricing-table.tsx`)}`,
    description: "Type-check the table",
  }, "");
  call("TodoWrite", {
    todos: [
      {
        content: "Server-render the pricing table from pricing.json",
        status: "in_progress",
        activeForm: "Server-rendering the pricing table",
      },
      { content: `Load prices from ${web}/03-working/pricing.json`, status: "pending", activeForm: "Loading prices" },
      {
        content: `Replace the carousel in ${web}/03-working/hero.tsx`,
        status: "pending",
        activeForm: "Replacing the carousel",
      },
    ],
  }, "Todos have been modified successfully.");
  assistant([{
    type: "text",
    text: `Next I'll wire \`${web}/03-working/pricing.json\` into the table, then tick the task in 04-steps.md.`,
  }]);
  write(path);
}

/** The task the everyday session plans and leaves in progress. */
export const EVERYDAY_TASK = "Fix rounding: sum integer cents in src/format.js";
/** The user's latest request in the everyday session. */
export const EVERYDAY_REQUEST = "Now write the regression test for 0.1 + 0.2";

/** The ordinary-repository session, for examples/everyday (the same story as tests/e2e/everyday.test.ts). */
export function writeEverydayTranscript(path: string, options: DemoTranscriptOptions): void {
  const p = (rel: string) => join(options.projectDir, rel);
  const { user, assistant, call, write } = transcriptRows(options);
  const read = (rel: string, text: string) =>
    call("Read", { file_path: p(rel) }, text, { type: "text", file: { filePath: p(rel), content: text } });

  user("The totals are off by a cent sometimes. Find out why.");
  read(
    "src/format.js",
    "export function formatTotal(prices) {\n  let total = 0;\n  for (const price of prices) total += price;\n  return `€${total}`;\n}",
  );
  call(
    "TaskCreate",
    {
      subject: EVERYDAY_TASK,
      description: "Floats drift: 0.1 + 0.2 is 0.30000000000000004. Convert to cents first.",
      activeForm: "Fixing rounding",
    },
    `Task #1 created successfully: ${EVERYDAY_TASK}`,
    { task: { id: "1", subject: EVERYDAY_TASK } },
  );
  call(
    "TaskCreate",
    {
      subject: "Add a regression test for 0.1 + 0.2",
      description: "In test/format.test.js: formatTotal([0.1, 0.2]) must print €0.30.",
      activeForm: "Adding the regression test",
    },
    "Task #2 created successfully: Add a regression test for 0.1 + 0.2",
    { task: { id: "2", subject: "Add a regression test for 0.1 + 0.2" } },
  );
  call("TaskUpdate", { taskId: "1", status: "in_progress" }, "Updated task #1 status", {
    success: true,
    taskId: "1",
    updatedFields: ["status"],
    statusChange: { from: "pending", to: "in_progress" },
  });
  read(
    "src/parse.js",
    'export function parsePrices(text) {\n  return text.split(",").map((s) => Number(s.trim()));\n}',
  );
  call(
    "Edit",
    { file_path: p("src/format.js"), old_string: "total += price;", new_string: "total += Math.round(price * 100);" },
    "The file has been updated.",
    {
      filePath: p("src/format.js"),
      oldString: "total += price;",
      newString: "total += Math.round(price * 100);",
    },
  );
  call(
    "Bash",
    { command: "grep -rn formatTotal src test", description: "Find the callers" },
    'src/format.js:2:export function formatTotal(prices) {\ntest/format.test.js:3:import { formatTotal } from "../src/format.js";',
  );
  call(
    "Bash",
    { command: "npm test", description: "Run the tests" },
    "Exit code 1\n\n> shop-totals test\n> node --test test/\n\nTAP version 13\n# Subtest: formatTotal adds the prices\n" +
      "not ok 1 - formatTotal adds the prices\n  ---\n  error: |-\n    Expected values to be strictly equal:\n" +
      "    '€300' !== '€3'\n  ...\n# tests 1\n# pass 0\n# fail 1",
    undefined,
    { error: true },
  );
  assistant([{ type: "text", text: "format.js now sums integer cents; the division back to euros is next." }]);
  user(EVERYDAY_REQUEST);
  read(
    "test/format.test.js",
    'test("formatTotal adds the prices", () => {\n  assert.equal(formatTotal([1, 2]), "€3");\n});',
  );
  assistant([{ type: "text", text: "I'll finish the division in src/format.js first, then add the test." }]);
  write(path);
}
