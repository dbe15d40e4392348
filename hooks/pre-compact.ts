// The PreCompact hook binary (dist/pre-compact). Thin entry: all logic is in lib/events/pre_compact.ts.
// The workflow parts (projects, orchestration, dispatch files) are hooks/pre-compact-workflows.ts,
// which build.ts embeds as a bundle of its own: an ordinary repository's PreCompact never loads
// their code, whose start-up is a measurable part of the hook's (docs/bench-notes.md, "PreCompact:
// what is left, and what was tried").
// No top-level await: the entry compiles to bytecode, whose output format is CommonJS.
import { runHook } from "../lib/hook/run_hook.ts";
import { preCompactHandler, type PreCompactWorkflows } from "../lib/events/pre_compact.ts";

// Computed, not a literal: the bundler would put a literal's target into this bundle.
const WORKFLOWS = ["./pre-compact-workflows", "ts"].join(".");
type Loaded = { workflows: PreCompactWorkflows };

// require() where there is one (Bun, the compiled binary), on first use; import() in Deno, first
// (hooks/rehydrate.ts). A broken build fails the workflows' parts open: the hook still runs.
if (typeof require === "function") {
  let loaded: PreCompactWorkflows | undefined;
  runHook("PreCompact", preCompactHandler(() => loaded ??= (require(WORKFLOWS) as Loaded).workflows));
} else {
  const run = (load: () => PreCompactWorkflows) => runHook("PreCompact", preCompactHandler(load));
  import(WORKFLOWS).then((m: Loaded) => run(() => m.workflows), () =>
    run(() => {
      throw new Error(`cannot load ${WORKFLOWS}`);
    }));
}
