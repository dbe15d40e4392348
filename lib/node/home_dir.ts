/**
 * The user's home directory without loading `node:os` on the hot path: `HOME` (what `os.homedir()`
 * returns on Unix when it is set), then `USERPROFILE` (Windows), and only when neither is set,
 * `os.homedir()` through `process.getBuiltinModule`. Loading `node:os` adds to a compiled hook's
 * start (bench/README.md, "What start-up pays for"), and most hooks never need it.
 *
 * @example
 * ```ts
 * homeDir({ HOME: "/home/a" }); // "/home/a"
 * homeDir({ USERPROFILE: "C:\\Users\\a" }); // "C:\\Users\\a"
 * ```
 */
export function homeDir(env: Record<string, string | undefined> = process.env): string {
  const home = env.HOME || env.USERPROFILE;
  if (home) return home;
  const os = process.getBuiltinModule("node:os") as { homedir(): string };
  return os.homedir();
}
