// The command-line verbs of the multicall binary (`rehydrate install`, `status`, ...). Thin entry:
// all logic is in lib/cli/main.ts. hooks/rehydrate.ts loads it for anything that is not a hook.
// No top-level await: the entry compiles to bytecode, whose output format is CommonJS.
import { cliMain } from "../lib/cli/main.ts";

void cliMain(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
