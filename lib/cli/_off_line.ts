// Private to lib/cli/: the one line `status` and `doctor` print when the config turns rehydrate off.

/**
 * `rehydrate is off: "enabled": false in <file>; ...`, naming the config file that turned it off.
 *
 * @example
 * ```ts
 * offLine("/work/repo/.claude/rehydrate.json");
 * ```
 */
export function offLine(file: string | null): string {
  return `rehydrate is off: "enabled": false in ${
    file ?? "the config"
  }; every hook exits at once, with no output and no write (rehydrate uninstall removes them)`;
}
