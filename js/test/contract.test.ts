// The wire contract: real views Python sent (tests/test_table_core.py writes them to fixtures/)
// have exactly the fields src/types.ts declares, and the table renders every one of them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import widget from "../src/index";
import type { Drawn, Player, Snapshot, Step, View } from "../src/types";
import { button, FakeModel, nameOf } from "./helpers";

// Each record must list every key of its type (the type checker enforces it), so the test
// below compares the fixtures against the one definition in types.ts.
const VIEW: Record<keyof View, true> = {
  mode: true, rev: true, seat: true, reveal: true, players: true, dealer: true,
  current_player: true, phase: true, hand: true, penalty: true, stock_size: true,
  discard_pile: true, melds: true, taken_from_discard: true, log: true,
  result: true, scoreboard: true, rules: true, hint: true, message: true, steps: true,
  replay: true, take_back: true, review: true, pass: true, deal: true, classroom: true,
};
const STEP: Record<keyof Step, true> = { actor: true, events: true, table: true };
const SNAPSHOT: Record<keyof Snapshot, true> = {
  players: true, current_player: true, stock_size: true, discard_top: true,
  discard_size: true, melds: true, hands: true,
};
const PLAYER: Record<keyof Player, true> = { name: true, hand_size: true, has_melded: true, hand: true, bot: true };
// Only a classroom seat's view (table/remote.py) says `classroom`; only a bot's seat `bot`.
const OPTIONAL = new Set(["hands", "hand", "classroom", "bot"]);

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

describe("messages Python really sends", () => {
  const exchange = JSON.parse(readFileSync(join(dir, "messages", "drawn.json"), "utf8")) as {
    before: View;
    drawn: Drawn;
    after: View;
  };
  const DRAWN: Record<keyof Drawn, true> = { type: true, rev: true, card: true, source: true };
  const hand = (el: Element) =>
    [...el.querySelectorAll<HTMLElement>(".rw-hand [data-card]")].map((b) => [
      Number(b.dataset.card),
      b.classList.contains("rw-fresh"),
    ]);

  function mountBefore() {
    const el = document.createElement("div");
    document.body.append(el);
    const model = new FakeModel({ view: exchange.before, lang: "en", bot_speed: "instant" });
    cleanup = widget.render({ model, el });
    return { el, model };
  }

  test("the drawn card goes into the hand before its view comes, in the place the view keeps", () => {
    expectKeys(exchange.drawn, DRAWN);
    const { el, model } = mountBefore();
    const id = exchange.drawn.card.id;
    button(el, "Stock").click();
    expect(model.sent).toHaveLength(1);
    model.receive(exchange.drawn);
    const early = hand(el);
    expect(early).toHaveLength(exchange.before.hand.length + 1);
    expect(early.filter(([, fresh]) => fresh)).toEqual([[id, true]]);
    const group = el.querySelector(".rw-hand") as HTMLElement;
    expect(group.style.getPropertyValue("--rw-n")).toBe(String(early.length));
    model.set("view", exchange.after);
    expect(hand(el)).toEqual(early);
    expect(el.querySelector(".rw-piles")?.textContent).toContain(`${exchange.after.stock_size} cards`);
    // The view's draw builds the hand again: the card put in alone is now the part's own.
    const again = document.createElement("div");
    document.body.append(again);
    const fresh = widget.render({ model: new FakeModel({ view: exchange.after, bot_speed: "instant" }), el: again });
    const names = (root: Element) => [...root.querySelectorAll(".rw-hand [data-card]")].map((b) => nameOf(b));
    expect(names(el)).toEqual(names(again));
    fresh?.();
    again.remove();
  });

  test("a drawn card that does not follow the table's own draw is not shown", () => {
    const { el, model } = mountBefore();
    model.receive(exchange.drawn); // no draw asked for: nothing waits for it
    expect(hand(el)).toHaveLength(exchange.before.hand.length);
    button(el, "Stock").click();
    model.receive({ ...exchange.drawn, rev: exchange.drawn.rev + 1 }); // not the next view's
    expect(hand(el)).toHaveLength(exchange.before.hand.length);
  });
});
