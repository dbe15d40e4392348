/**
 * Private helper of `rehydrate doctor --agent codex`: checks a Codex install, the project's and
 * the user's (`_codex_hooks.ts`), and prints the doctor's pass/warn/fail lines.
 *
 * @module
 */
import { accessSync, constants, existsSync } from "../node/fs.ts";
import { resolve } from "../node/path.ts";
import { VERSION } from "../hook/version.ts";
import type { CliIo } from "./main.ts";
import { readOptions, resolveEnv, type VerbEnv } from "./_install_detect.ts";
import { commandHook, firstWord, unguard } from "./_install_plan.ts";
import { readSettings } from "./_install_settings_file.ts";
import { CODEX_HOOKS, codexFiles, ourCodexHandlers } from "./_codex_hooks.ts";
import { projectTrusted, trustedHashes } from "./_codex_toml.ts";
import { failure, usageError } from "./_usage.ts";

type Status = "pass" | "warn" | "fail";

/** `rehydrate doctor --agent codex`; the caller took `--agent codex` out of `args`. */
export function doctorCodex(args: string[], io: CliIo, options: VerbEnv): number {
  const opts = readOptions(args, { flags: ["--json", "--no-latency"], values: ["--project"] });
  if (opts.error) return usageError(io, "doctor", opts.error);
  const env = resolveEnv(options);
  const projectDir = resolve(env.cwd, opts.values.get("--project") ?? ".");
  if (!existsSync(projectDir)) return failure(io, "doctor", `no directory ${projectDir}; pass --project DIR`);
  const checks: { status: Status; area: string; message: string }[] = [];
  const add = (status: Status, area: string, message: string) => void checks.push({ status, area, message });

  const project = codexFiles(projectDir, env);
  const user = codexFiles(undefined, env);
  const config = readSettings(project.configFile);
  const configText = "error" in config ? null : config.text;
  if ("error" in config) add("fail", "config", config.error);
  const trusted = trustedHashes(configText);
  const installs: { name: string; file: string; hooks: ReturnType<typeof ourCodexHandlers> }[] = [];
  for (const [name, files] of [["project", project], ["user", user]] as const) {
    const read = readSettings(files.hooksFile, { root: files.projectDir });
    if ("error" in read) {
      add("fail", "settings", read.error);
      continue;
    }
    if (read.text === null) continue;
    let parsed = true;
    try {
      JSON.parse(read.text.replace(/^\uFEFF/, ""));
    } catch (err) {
      add("fail", "settings", `${files.hooksFile}: ${(err as Error).message}; Codex skips the whole file`);
      parsed = false;
    }
    const hooks = parsed ? ourCodexHandlers(read.text, files.hooksFile) : [];
    if (hooks.length > 0) installs.push({ name, file: files.hooksFile, hooks });
  }
  if (installs.length === 0) {
    add(
      "fail",
      "settings",
      `rehydrate is not registered in ${project.hooksFile} or ${user.hooksFile}; run rehydrate install --agent codex`,
    );
  }
  for (const i of installs) {
    add("pass", "settings", `${i.file}: ${i.hooks.map((h) => `${h.event}:${commandHook(h.command, [])}`).join(", ")}`);
    const missing = CODEX_HOOKS.filter((s) => !i.hooks.some((h) => h.event === s.event));
    if (missing.length > 0) {
      add(
        "warn",
        "settings",
        `${i.file} lacks ${missing.map((s) => s.event).join(", ")}; run rehydrate install --agent codex`,
      );
    }
    for (const h of i.hooks) {
      const kept = trusted.get(h.key);
      if (kept === h.hash) add("pass", "trust", `${h.event} trusted (${project.configFile})`);
      else {
        add(
          "fail",
          "trust",
          `${h.event} in ${i.file} is ${
            kept === undefined ? "not trusted" : "changed since it was trusted"
          }: Codex will not run it (it asks for a review in its interactive client); run rehydrate install --agent codex${
            i.name === "user" ? " --user" : ""
          } again`,
        );
      }
      const binary = firstWord(unguard(h.command).command).word;
      if (!existsSync(binary)) add("fail", "binary", `${binary} (${h.event}) does not exist`);
      else {
        try {
          accessSync(binary, constants.X_OK);
        } catch {
          add("fail", "binary", `${binary} (${h.event}) is not executable`);
        }
      }
    }
  }
  if (installs.length === 2) {
    add("warn", "settings", `both ${installs[0].file} and ${installs[1].file} register rehydrate: its hooks run twice`);
  }
  if (installs.some((i) => i.name === "project") && project.projectDir !== undefined) {
    if (projectTrusted(configText, project.projectDir)) add("pass", "project", `${project.projectDir} is trusted`);
    else {
      add(
        "warn",
        "project",
        `${project.projectDir} is not trusted in ${project.configFile}: Codex ignores its .codex/hooks.json until it is (answer its question, or run codex exec --trust once)`,
      );
    }
  }
  const count = (s: Status) => checks.filter((c) => c.status === s).length;
  const summary = { pass: count("pass"), warn: count("warn"), fail: count("fail") };
  if (opts.flags.has("--json")) {
    io.out(JSON.stringify({ version: VERSION, agent: "codex", project: projectDir, checks, summary }, null, 2) + "\n");
  } else {
    io.out(`rehydrate doctor ${VERSION}: ${projectDir} (Codex)\n`);
    for (const c of checks) io.out(`${c.status.padEnd(4)}  ${c.area.padEnd(10)}  ${c.message}\n`);
    io.out(`${summary.pass} passed, ${summary.warn} warnings, ${summary.fail} failed\n`);
  }
  return summary.fail > 0 ? 1 : 0;
}
