// The multicall binary (dist/rehydrate): every hook and every CLI verb. Thin entry: see lib/cli_main.ts.
import { cliMain } from "../lib/cli_main.ts";

const code = await cliMain(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
