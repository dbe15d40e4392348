// The multicall binary (dist/rehydrate): what releases ship and `rehydrate install` registers.
// `rehydrate <hook>` runs hooks/<hook>.ts exactly as dist/<hook> does; `--version` prints here (it
// is the floor `rehydrate doctor` measures the hooks against); anything else runs the CLI
// (hooks/cli.ts). build.ts embeds each of those entries in the binary as a bundle of its own, and
// the specifier below is computed, so the bundler leaves it to run time: a hook loads its own
// bundle and nothing else, which costs about what dist/<hook> does, where one bundle of everything
// or ES modules split by the bundler cost more (bench/README.md, "The multicall binary").
// No top-level await: the entry compiles to bytecode, whose output format is CommonJS.
import { HOOK_NAMES } from "../lib/hook/hook_names.ts";
import { VERSION } from "../lib/hook/version.ts";
import { writeFd } from "../lib/node/write_fd.ts";

const name = process.argv[2];
if (name === "--version" || name === "-V" || name === "version") {
  writeFd(1, `${VERSION}\n`, Infinity);
} else {
  const isHook = name !== undefined && Object.hasOwn(HOOK_NAMES, name);
  // A hook entry reads its own options (--help, --version) after its name, as dist/<hook> does.
  if (isHook) process.argv.splice(2, 1);
  // Computed, not a literal: the bundler would resolve a literal and put that hook's code into this
  // entry's bundle.
  const entry = "./" + (isHook ? name : "cli") + ".ts";
  const failed = (): void => {
    // Only a broken build gets here. A hook still exits 0 and prints nothing on stdout (Claude Code
    // shows its stderr only in the transcript view); the CLI fails.
    writeFd(2, `rehydrate: cannot load ${entry}${isHook ? ": the hook did nothing" : ""}\n`, Infinity);
    if (!isHook) process.exitCode = 1;
  };
  // require() where there is one (Bun, the compiled binary): it loads the bundle at once, where
  // import() goes through the module loader's promises first (dearer on the usual prompt;
  // bench/README.md). import() in Deno, which has no require() here.
  if (typeof require === "function") {
    try {
      require(entry);
    } catch {
      failed();
    }
  } else {
    import(entry).catch(failed);
  }
}
