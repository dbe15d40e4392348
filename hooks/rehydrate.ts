// The multicall binary (dist/rehydrate): every hook and every CLI verb. Thin entry: see lib/cli_main.ts.
// No top-level await: the entry must also compile to bytecode, whose output format is CommonJS.
import { cliMain } from "../lib/cli_main.ts";

void cliMain(process.argv.slice(2)).then((code) => {
  if (code !== undefined) process.exitCode = code;
});
