import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { CONFIG_HOOK_NEEDS, configNeeds, wantedHooks } from "../../../lib/cli/_config_hooks.ts";
import { configSchema } from "../../../lib/config/config_schema.ts";
import { defaultConfig } from "../../../lib/config/default_config.ts";
import type { RehydrateConfig } from "../../../lib/config/load_config.ts";

type Obj = Record<string, unknown>;

/** Every leaf key of config.v1.json, dotted. */
function leaves(schema: Obj, prefix = ""): string[] {
  return Object.entries(schema.properties as Record<string, Obj>).flatMap(([k, sub]) =>
    sub.properties ? leaves(sub, `${prefix}${k}.`) : [`${prefix}${k}`]
  );
}

/** A value that turns each key's behaviour on (the default where it is on already). */
const ON: Record<string, unknown> = {
  "session.enabled": true,
  "session.fillWarnings": [0.55],
  "session.restoreMessage": true,
  "projects.enabled": true,
  "orchestration.enabled": true,
  "dispatch.enabled": true,
  "reread.enforce": true,
};

function withValue(key: string, value: unknown): RehydrateConfig {
  const c = defaultConfig();
  const parts = key.split(".");
  let node = c as unknown as Obj;
  for (const p of parts.slice(0, -1)) node = node[p] as Obj;
  node[parts[parts.length - 1]] = value;
  return c;
}

describe("the config keys that need a hook", () => {
  test("every key of config.v1.json says what it needs of the hooks, and no other key is listed", () => {
    assert.deepEqual(Object.keys(CONFIG_HOOK_NEEDS).sort(), leaves(configSchema() as Obj).sort());
  });

  for (const [key, need] of Object.entries(CONFIG_HOOK_NEEDS)) {
    if (need === null) continue;
    test(`install registers every hook ${key} asks for, in a repository with no workflow`, () => {
      assert.ok(key in ON, `a value of ${key} that turns it on`);
      const config = withValue(key, ON[key]);
      assert.equal(need.when(config), true);
      const hooks = wantedHooks([], config).map((s) => s.hook);
      for (const h of need.hooks) assert.ok(hooks.includes(h), `${key} needs ${h}; install registers ${hooks}`);
      assert.ok(configNeeds(config).some((n) => n.key === key && n.value === ON[key]));
    });
  }

  test("reread.enforce true asks for PreToolUse and Stop; auto and false do not", () => {
    const need = (v: unknown) => configNeeds(withValue("reread.enforce", v)).find((n) => n.key === "reread.enforce");
    assert.deepEqual(need(true)?.hooks, ["pre-compact", "pre-tool-use", "stop"]);
    assert.equal(need("auto"), undefined);
    assert.equal(need(false), undefined);
    assert.ok(!wantedHooks([], defaultConfig()).some((s) => s.hook === "pre-tool-use"));
  });

  test("configNeeds() asks for nothing when rehydrate is off", () => {
    const config = withValue("reread.enforce", true);
    config.enabled = false;
    assert.deepEqual(configNeeds(config), []);
  });
});
