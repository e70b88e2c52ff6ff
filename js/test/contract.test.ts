// The wire contract: real views Python sent (tests/test_table_core.py writes them to fixtures/)
// have exactly the fields src/types.ts declares, and the table renders every one of them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import widget from "../src/index";
import type { Player, Snapshot, Step, View } from "../src/types";
import { FakeModel } from "./helpers";

// Each record must list every key of its type (the type checker enforces it), so the test
// below compares the fixtures against the one definition in types.ts.
const VIEW: Record<keyof View, true> = {
  mode: true, rev: true, seat: true, reveal: true, players: true, dealer: true,
  current_player: true, phase: true, hand: true, penalty: true, stock_size: true,
  discard_pile: true, melds: true, taken_from_discard: true, log: true, log_start: true,
  result: true, scoreboard: true, rules: true, hint: true, message: true, steps: true,
  replay: true, take_back: true, review: true, pass: true, deal: true, classroom: true,
};
const STEP: Record<keyof Step, true> = { actor: true, events: true, table: true };
const SNAPSHOT: Record<keyof Snapshot, true> = {
  players: true, current_player: true, stock_size: true, discard_top: true,
  discard_size: true, melds: true, hands: true,
};
const PLAYER: Record<keyof Player, true> = { name: true, hand_size: true, has_melded: true, hand: true };
// Only a classroom seat's view (table/remote.py) says `classroom`.
const OPTIONAL = new Set(["hands", "hand", "classroom"]);

const dir = join(__dirname, "fixtures");
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f, JSON.parse(readFileSync(join(dir, f), "utf8")) as View] as const);

function expectKeys(value: object, keys: Record<string, true>): void {
  const required = Object.keys(keys).filter((k) => !OPTIONAL.has(k)).sort();
  const got = Object.keys(value).sort();
  expect(got.filter((k) => !OPTIONAL.has(k))).toEqual(required);
  for (const k of got) expect(k in keys).toBe(true);
}

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe("views Python really sends", () => {
  test("there are fixtures of every kind", () => {
    expect(fixtures.map(([f]) => f).sort()).toEqual([
      "bots_4p_reveal.json",
      "message_hint.json",
      "over_2p.json",
      "replay.json",
      "start_2p.json",
    ]);
  });

  test.each(fixtures)("%s has the declared shape and renders", (_name, view) => {
    expectKeys(view, VIEW);
    for (const p of view.players) expectKeys(p, PLAYER);
    for (const s of view.steps) {
      expectKeys(s, STEP);
      expectKeys(s.table, SNAPSHOT);
      expect(s.table.hands !== undefined).toBe(view.reveal);
    }
    const el = document.createElement("div");
    document.body.append(el);
    const model = new FakeModel({ view, lang: "en", bot_speed: "instant" });
    cleanup = widget.render({ model, el });
    expect(el.querySelectorAll(".rw-hand [data-card]")).toHaveLength(view.hand.length);
    if (view.message) expect(el.querySelector("[role=alert]")?.textContent).toBe(view.message.text);
  });
});
