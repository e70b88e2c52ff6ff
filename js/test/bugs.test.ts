// The six "Broken today" bugs of the table issue, each pinned by a test that failed before.
import { describe, expect, test, vi } from "vitest";
import type { Step, View } from "../src/types";
import { button, card, cards, makeView, mountedTable, nameOf, openDrawer } from "./helpers";

const table = mountedTable();
let el: HTMLElement;

function mount(state: Record<string, unknown>) {
  const model = table.mount(state);
  el = table.el;
  return model;
}

const players = (a: number, b: number) => [
  { hand_size: a, has_melded: false },
  { hand_size: b, has_melded: false },
];

/** Aino draws from the stock, then discards 4♠: two animated steps, the learner next. */
function botTurn(over: Partial<View> = {}, reveal = false): View {
  const steps: Step[] = [
    {
      actor: 1,
      events: [{ type: "draw", player: 1, source: "stock", text: "Aino drew from the stock." }],
      table: {
        players: players(10, 10),
        current_player: 1,
        stock_size: 71,
        discard_top: card("JH"),
        discard_size: 1,
        melds: [],
        ...(reveal ? { hands: [cards("AS 10C QD 7H 8H 9H 2S 5D KC 3C"), cards("2H 3H 4H 5C 6C 7C 8C 9C 10D 4S")] } : {}),
      },
    },
    {
      actor: 1,
      events: [{ type: "discard", player: 1, card: card("4S"), text: "Aino discarded 4 of spades." }],
      table: {
        players: players(10, 9),
        current_player: 0,
        stock_size: 70,
        discard_top: card("4S"),
        discard_size: 2,
        melds: [],
        ...(reveal ? { hands: [cards("AS 10C QD 7H 8H 9H 2S 5D KC 3C"), cards("2H 3H 4H 5C 6C 7C 8C 9C 10D")] } : {}),
      },
    },
  ];
  return makeView({ rev: 4, steps, ...over });
}

describe("broken today", () => {
  test("open hands stay face up at every frame of the bots' animation", () => {
    vi.useFakeTimers();
    const model = mount({ view: makeView({ rev: 3, reveal: true }), bot_speed: "normal" });
    const view = botTurn({ reveal: true }, true);
    view.players[1].hand = cards("2H 3H 4H 5C 6C 7C 8C 9C 10D");
    model.set("view", view);
    const seat = () => el.querySelector(".rw-seat") as HTMLElement;
    for (const want of [10, 9, 9]) {
      expect(seat().querySelectorAll(".rw-back")).toHaveLength(0);
      expect(seat().querySelectorAll("[role=img]")).toHaveLength(want);
      vi.advanceTimersByTime(700);
    }
  });

  test("the move log is never ahead of the animated table", () => {
    vi.useFakeTimers();
    const before = makeView({ rev: 3, log: [{ type: "deal", dealer: 1, text: "Aino dealt." }] });
    const model = mount({ view: before, bot_speed: "normal" });
    const view = botTurn({
      log: [
        { type: "deal", dealer: 1, text: "Aino dealt." },
        { type: "draw", player: 1, source: "stock", text: "Aino drew from the stock." },
        { type: "discard", player: 1, card: card("4S"), text: "Aino discarded 4 of spades." },
      ],
    });
    model.set("view", view);
    openDrawer(el);
    const log = () => [...el.querySelectorAll(".rw-log li")].map((li) => li.textContent);
    expect(log()).toEqual(["Aino dealt.", "Aino drew from the stock."]);
    vi.advanceTimersByTime(700);
    expect(log()).toEqual(["Aino dealt.", "Aino drew from the stock.", "Aino discarded 4 of spades."]);
  });

  test("an error is on the message line right above the actions", () => {
    mount({ view: makeView({ phase: "draw" }) });
    button(el, "ace of spades").click();
    button(el, "Discard").click();
    const alert = el.querySelector("[role=alert]") as HTMLElement;
    expect(alert.textContent).toContain("Draw a card first");
    const line = alert.closest(".rw-line") as HTMLElement;
    expect(line).not.toBeNull();
    expect(line.nextElementSibling?.classList.contains("rw-actions")).toBe(true);
    expect(el.querySelectorAll(".rw-line")).toHaveLength(1);
  });

  test("a new deal's hand is sorted even when a card id of the last hand comes again", () => {
    const over = makeView({ phase: "over", hand: cards("KC AS 7H") });
    const model = mount({ view: over });
    // The learner reorders the last hand by hand: king of clubs first.
    const king = button(el, "king of clubs");
    king.focus();
    king.dispatchEvent(new KeyboardEvent("keydown", { key: "Home", shiftKey: true, bubbles: true }));
    expect(nameOf(el.querySelector(".rw-hand button") as Element)).toBe("king of clubs");
    // Deal 2 deals the king of clubs again, with new cards, in dealt order.
    model.set("view", makeView({ rev: 9, deal: { number: 2, total: 2 }, hand: cards("KC 2S 9H AS") }));
    const order = [...el.querySelectorAll(".rw-hand button")].map(nameOf);
    expect(order).toEqual(["ace of spades", "2 of spades", "9 of hearts", "king of clubs"]);
  });

  test("no frame of the bots' turn calls the learner by name in the third person", () => {
    vi.useFakeTimers();
    const alex = (v: View) => {
      v.players[0].name = "Alex";
      return v;
    };
    const model = mount({ view: alex(makeView({ rev: 3 })), bot_speed: "normal" });
    model.set("view", alex(botTurn()));
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      seen.push(el.querySelector(".rw-status")?.textContent ?? "");
      vi.advanceTimersByTime(350);
    }
    expect(seen.filter((s) => s.includes("Alex"))).toEqual([]);
    expect(seen).toContain("Aino discards 4♠");
    expect(seen[seen.length - 1]).toBe("Your turn: draw from the stock or take the top of the discard pile.");
  });

  test("after going out the focus is on Next deal, so N works at once", () => {
    const view = makeView({ phase: "play", hand: cards("KC") });
    const model = mount({ view });
    const king = button(el, "king of clubs");
    king.click();
    king.focus();
    const board = {
      winner: 0,
      rummy: false,
      void: false,
      bonus: 0,
      penalties: [0, 31],
      deal: 1,
      deals: 2,
      totals: [0, 31],
      match_over: false, outcome: "", standing: null,
    };
    model.set("view", makeView({ rev: 4, phase: "over", hand: [], scoreboard: board }));
    const active = (el.getRootNode() as Document).activeElement as HTMLElement;
    expect(nameOf(active)).toBe("Next deal");
    active.dispatchEvent(new KeyboardEvent("keydown", { key: "n", bubbles: true }));
    expect(model.sent.at(-1)).toEqual({ type: "next_deal", rev: 4 });
  });
});
