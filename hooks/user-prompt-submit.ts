// The UserPromptSubmit hook binary (dist/user-prompt-submit). Thin entry: the usual prompt takes
// the fast path (lib/events/quiet_prompt.ts: the monitor only, while nothing but the fill has changed);
// any other prompt runs the full hook, hooks/user-prompt-submit-full.ts, which build.ts embeds as a
// bundle of its own so that the fast path never loads it (bench/README.md, "The usual prompt's
// fast path").
// No top-level await: the entry compiles to bytecode, whose output format is CommonJS.
import type { UserPromptSubmitInput } from "../lib/hook/hook_types.ts";
import { readStdin } from "../lib/hook/read_stdin.ts";
import { quietPrompt } from "../lib/events/quiet_prompt.ts";
import { writeFd } from "../lib/node/write_fd.ts";

const args = process.argv.slice(2);
const input = args.length === 0 ? readStdin() : null;
const text = input?.ok ? input.text : "";
// The input the fast path parsed before it declined: the full hook does not parse it again.
let parsed: UserPromptSubmitInput | undefined;
const out = input === null ? undefined : quietPrompt(text, { onInput: (value) => parsed = value });
if (out !== undefined) {
  if (out !== "") writeFd(1, out);
} else {
  // Computed, not a literal: the bundler would put a literal's target into this bundle.
  const full = ["./user-prompt-submit-full", "ts"].join(".");
  type Full = { runFull(stdin: string | null, args: string[], input?: UserPromptSubmitInput): void };
  // require() where there is one (Bun, the compiled binary), import() in Deno (hooks/rehydrate.ts).
  if (typeof require === "function") {
    try {
      (require(full) as Full).runFull(input === null ? null : text, args, parsed);
    } catch { /* a broken build: exit 0, no output */ }
  } else {
    import(full).then((m: Full) => m.runFull(input === null ? null : text, args, parsed), () => {});
  }
}
