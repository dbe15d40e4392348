// The floor of the latency benchmark: what starting the runtime costs at all. Compiled with the
// same flags as the hooks (build.ts's COMPILE_FLAGS), it does what every hook must do at least:
// read stdin to EOF and answer. Only node: built-ins, like the hooks.
import { readFileSync, writeSync } from "node:fs";

readFileSync(0);
writeSync(1, "{}");
