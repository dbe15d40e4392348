import { closeSync, constants, fstatSync, openSync, readSync } from "../node/fs.ts";
import { parseRow } from "./lines.ts";

/** Bytes read from the start of the transcript. */
const HEAD_BYTES = 64 * 1024;
// A FIFO at the transcript path must not block the open; fstat then refuses it.
const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;

/**
 * The working directory the session started in: the `cwd` of the first main-chain row that has
 * one, within the transcript's first 64 KiB (read forwards, once). Claude Code keys its file
 * history by paths relative to that directory (`getOriginalCwd()`), which stays the same when the
 * session later changes directory. Undefined when the head has none or the file cannot be read.
 *
 * @example
 * ```ts
 * import { transcriptOriginCwd } from "./origin_cwd.ts";
 * transcriptOriginCwd("/home/me/.claude/projects/-home-me-app/7da37d46.jsonl"); // "/home/me/app"
 * ```
 */
export function transcriptOriginCwd(transcriptPath: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(transcriptPath, constants.O_RDONLY | O_NONBLOCK);
  } catch {
    return undefined;
  }
  let text: string;
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = new Uint8Array(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    text = new TextDecoder().decode(buf.subarray(0, n));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  const lines = text.split("\n");
  // The last line may be cut at the read's end: it is parsed only when the file ended there.
  if (lines.length > 1 || text.length < HEAD_BYTES) {
    for (const line of lines.slice(0, text.length < HEAD_BYTES ? lines.length : -1)) {
      if (!line.includes('"cwd"')) continue;
      const row = parseRow(line);
      if (row === undefined || row.isSidechain === true) continue;
      if (typeof row.cwd === "string" && row.cwd !== "" && row.cwd.length <= 4096) return row.cwd;
    }
  }
  return undefined;
}
