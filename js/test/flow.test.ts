// The front end's state machine, watchable bots, feedback, flow between deals and the replay.
import { describe, expect, test, vi } from "vitest";
import type { LogEvent, Step, View } from "../src/types";
import { button, card, cards, key, makeView, mountedTable, nameOf, openDrawer } from "./helpers";

const table = mountedTable();
let el: HTMLElement;

function mount(state: Record<string, unknown>) {
  const model = table.mount(state);
  el = table.el;
  return model;
}

const state = () => (el.querySelector(".rw-root") as HTMLElement).dataset.rwState;

function takeStep(): Step {
  return {
    actor: 1,
    events: [{ type: "draw", player: 1, source: "discard", card: card("QS"), text: "Aino took queen of spades from the discard pile." }],
    table: {
      players: [
        { hand_size: 10, has_melded: false },
        { hand_size: 10, has_melded: true },
      ],
      current_player: 1,
      stock_size: 70,
      discard_top: null,
      discard_size: 0,
      melds: [],
    },
  };
}

describe("state machine", () => {
  test("idle, waiting for Python after an intent, animating the bots, idle again", () => {
    vi.useFakeTimers();
    const model = mount({ view: makeView(), bot_speed: "fast" });
    expect(state()).toBe("idle");
    button(el, "Stock").click();
    expect(state()).toBe("waiting");
    button(el, "Discard pile").click(); // a second click while waiting is answered
    expect(model.sent).toHaveLength(1);
    expect(el.querySelector("[role=alert]")?.textContent).toBe(
      "One moment: the table is checking your move.",
    );
    model.set("view", makeView({ rev: 4, steps: [takeStep()] }));
    expect(state()).toBe("animating");
    vi.advanceTimersByTime(250);
    expect(state()).toBe("idle");
  });

  test("a caption by the acting bot, a visible Skip, and a word for a click meanwhile", () => {
    vi.useFakeTimers();
    const model = mount({ view: makeView({ rev: 3 }), bot_speed: "slow" });
    model.set("view", makeView({ rev: 4, steps: [takeStep()] }));
    expect(el.querySelector(".rw-status")?.textContent).toBe("Aino takes Q♠ from the discard pile");
    button(el, "Stock").click();
    expect(model.sent).toHaveLength(0);
    expect(el.querySelector("[role=alert]")?.textContent).toBe(
      "Aino is still playing: wait a moment, or press Skip.",
    );
    button(el, "Skip").click();
    expect(state()).toBe("idle");
    expect(el.querySelectorAll('[data-rw-act="skip"]')).toHaveLength(0);
    expect(button(el, "Stock").getAttribute("aria-disabled")).toBeNull();
  });

  test("each bot's seat names its bot and keeps its last turn in words after the animation", () => {
    vi.useFakeTimers();
    const players = [
      { name: "You", hand_size: 10, has_melded: false },
      { name: "Aino", hand_size: 10, has_melded: true, bot: "Expert bot" },
    ];
    const discard: Step = {
      ...takeStep(),
      events: [{ type: "discard", player: 1, card: card("4S"), text: "Aino discarded 4 of spades." }],
    };
    const model = mount({ view: makeView({ rev: 3, players }), bot_speed: "normal" });
    const seat = () => el.querySelector(".rw-seat") as HTMLElement;
    expect(seat().querySelector(".rw-bot")?.textContent).toBe("Expert bot");
    expect(seat().querySelector(".rw-last")?.textContent).toBe("");
    model.set("view", makeView({ rev: 4, players, steps: [takeStep(), discard] }));
    vi.advanceTimersByTime(1400);
    expect(state()).toBe("idle");
    const said = "Aino takes Q♠ from the discard pile · Aino discards 4♠";
    expect(seat().querySelector(".rw-last")?.textContent).toBe(said);
    model.set("view", makeView({ rev: 5, players, phase: "play" })); // the learner drew: no steps
    expect(seat().querySelector(".rw-last")?.textContent).toBe(said);
    model.set("view", makeView({ rev: 6, players, steps: [takeStep()] })); // Aino's next turn
    button(el, "Skip").click();
    expect(seat().querySelector(".rw-last")?.textContent).toBe("Aino takes Q♠ from the discard pile");
  });

  test("with open hands the caption names the card a bot draws from the stock", () => {
    vi.useFakeTimers();
    const model = mount({ view: makeView({ rev: 3, reveal: true }), bot_speed: "slow" });
    const draw: Step = {
      ...takeStep(),
      events: [{ type: "draw", player: 1, source: "stock", card: card("7H"), text: "Aino drew from the stock." }],
    };
    model.set("view", makeView({ rev: 4, reveal: true, steps: [draw] }));
    expect(el.querySelector(".rw-status")?.textContent).toBe("Aino draws 7♥ from the stock");
  });

  test("cards travel unless the learner asked for reduced motion", () => {
    vi.useFakeTimers();
    const flights = () => el.querySelectorAll(".rw-flying").length;
    const animate = vi.fn(() => ({ finished: new Promise(() => undefined), cancel() {} }));
    (HTMLElement.prototype as any).animate = animate;
    try {
      let model = mount({ view: makeView({ rev: 3 }), bot_speed: "normal" });
      model.set("view", makeView({ rev: 4, steps: [takeStep()] }));
      expect(flights()).toBe(0); // the cards take off in the frame that shows the step
      vi.advanceTimersToNextFrame();
      expect(flights()).toBe(1);
      expect(animate).toHaveBeenCalledTimes(1);
      table.unmount();
      vi.stubGlobal("matchMedia", (q: string) => ({ matches: q.includes("reduce") }));
      (window as any).matchMedia = (q: string) => ({ matches: q.includes("reduce") });
      model = mount({ view: makeView({ rev: 3 }), bot_speed: "normal" });
      model.set("view", makeView({ rev: 4, steps: [takeStep()] }));
      vi.advanceTimersToNextFrame();
      expect(flights()).toBe(0);
      expect(el.querySelector(".rw-status")?.textContent).toBe("Aino takes Q♠ from the discard pile");
    } finally {
      delete (HTMLElement.prototype as any).animate;
      delete (window as any).matchMedia;
    }
  });
  test("a new view mid-flight cancels the travelling cards; with none in the air none is asked", () => {
    vi.useFakeTimers();
    const flights = () => el.querySelectorAll(".rw-flying").length;
    const cancel = vi.fn();
    (HTMLElement.prototype as any).animate = () => ({ finished: new Promise(() => undefined), cancel });
    const asked = vi.fn(function (this: HTMLElement) {
      return [...this.querySelectorAll(".rw-flying")].map(() => ({ cancel }));
    });
    (HTMLElement.prototype as any).getAnimations = asked;
    try {
      const model = mount({ view: makeView({ rev: 3 }), bot_speed: "normal" });
      model.set("view", makeView({ rev: 4 }));
      expect(asked).not.toHaveBeenCalled(); // nothing flying: no style pass for it
      model.set("view", makeView({ rev: 5, steps: [takeStep()] }));
      vi.advanceTimersToNextFrame();
      expect(flights()).toBe(1);
      model.set("view", makeView({ rev: 6 }));
      expect(cancel).toHaveBeenCalledTimes(1);
      expect(flights()).toBe(0);
      expect(state()).toBe("idle");
    } finally {
      delete (HTMLElement.prototype as any).animate;
      delete (HTMLElement.prototype as any).getAnimations;
    }
  });
});

describe("feedback and flow", () => {
  test("Meld with two cards asks Python, which names the rule; with none it says select", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    button(el, "Meld").click();
    expect(el.querySelector("[role=alert]")?.textContent).toBe("Select the cards to meld first.");
    button(el, "7 of hearts").click();
    button(el, "8 of hearts").click();
    button(el, "Meld").click();
    expect(model.sent[0].action).toEqual({ type: "meld", cards: [card("7H").id, card("8H").id] });
  });

  test("the card just taken from the pile is marked and says so in its name", () => {
    const hand = cards("AS 10C QD 7H 8H 9H 2S 5D KC 3C 4S");
    mount({ view: makeView({ phase: "play", hand, taken_from_discard: card("4S") }) });
    const taken = el.querySelector(`.rw-hand [data-card="${card("4S").id}"]`) as HTMLElement;
    expect(taken.classList.contains("rw-taken")).toBe(true);
    expect(nameOf(taken)).toBe(
      "4 of spades, taken from the discard pile: you may not discard it this turn",
    );
  });

  test("rules and deal number are always shown; a finished match offers Play again", () => {
    const board = {
      winner: 1, rummy: false, void: false, bonus: 0, penalties: [12, 0],
      deal: 2, deals: 2, totals: [30, 4], match_over: true, outcome: "", standing: null,
    };
    const model = mount({ view: makeView({ phase: "over", deal: { number: 2, total: 2 }, scoreboard: board }) });
    expect(el.querySelector(".rw-title")?.textContent).toBe("Rules: TraditionalDeal 2 of 2");
    button(el, "Play again").click();
    expect(model.sent[0]).toEqual({ type: "play_again", rev: 3 });
  });

  test("going out is celebrated briefly; Escape ends it early", () => {
    vi.useFakeTimers();
    const board = {
      winner: 0, rummy: true, void: false, bonus: 25, penalties: [0, 40],
      deal: 1, deals: 2, totals: [0, 40], match_over: false, outcome: "", standing: null,
    };
    const model = mount({ view: makeView({ phase: "play" }) });
    const end = { type: "end" as const, winner: 0, rummy: true, void: false, text: "You went Rummy!" };
    model.set("view", makeView({ rev: 4, phase: "over", scoreboard: board, log: [end] }));
    expect(el.querySelector(".rw-celebrate")?.textContent).toBe("Rummy! You went out in one turn!");
    key(button(el, "Next deal"), "Escape");
    expect(el.querySelector(".rw-celebrate")).toBeNull();
    model.set("view", makeView({ rev: 5, phase: "over", scoreboard: board, log: [end] }));
    vi.advanceTimersByTime(1600);
    expect(el.querySelector(".rw-celebrate")).toBeNull();
  });

  test("going out is celebrated once a deal: not again when the review opens or closes", () => {
    const board = {
      winner: 0, rummy: false, void: false, bonus: 0, penalties: [0, 40],
      deal: 1, deals: 2, totals: [0, 40], match_over: false, outcome: "", standing: null,
    };
    const end = { type: "end" as const, winner: 0, rummy: false, void: false, text: "You went out." };
    const model = mount({ view: makeView({ phase: "play" }) });
    const over = (rev: number, extra = {}) => model.set("view", makeView({ rev, phase: "over", scoreboard: board, log: [end], ...extra }));
    over(4);
    expect(el.querySelector(".rw-celebrate")?.textContent).toBe("You went out!");
    el.querySelector<HTMLElement>(".rw-celebrate")?.click();
    over(5, { review: { summary: "Reviewing", items: [] } });
    expect(el.querySelector(".rw-celebrate")).toBeNull();
    over(6, { mode: "replay", replay: { step: 3, total: 9 } });
    over(7);
    expect(el.querySelector(".rw-celebrate")).toBeNull();
    model.set("view", makeView({ rev: 8, phase: "draw", deal: { number: 2, total: 2 } }));
    over(9, { deal: { number: 2, total: 2 }, scoreboard: { ...board, deal: 2 } });
    expect(el.querySelector(".rw-celebrate")?.textContent).toBe("You went out!");
  });

  test("the scoreboard closes and opens by its heading, and stays as the learner left it", () => {
    const board = {
      winner: 1, rummy: false, void: false, bonus: 0, penalties: [12, 0],
      deal: 1, deals: 2, totals: [12, 0], match_over: false, outcome: "Aino went out.", standing: null,
    };
    const model = mount({ view: makeView({ phase: "over", scoreboard: board }) });
    const details = () => el.querySelector(".rw-score details") as HTMLDetailsElement;
    expect(details().open).toBe(true);
    expect(el.querySelector(".rw-score summary")?.textContent).toBe("Scores · Deal 1 of 2");
    details().open = false;
    details().dispatchEvent(new Event("toggle"));
    model.set("view", makeView({ rev: 4, phase: "over", scoreboard: board, review: { summary: "", items: [] } }));
    expect(details().open).toBe(false);
    expect(el.querySelector(".rw-score tbody")?.textContent).toContain("Aino");
    model.set("view", makeView({ rev: 5, phase: "over", scoreboard: { ...board, deal: 2 }, deal: { number: 2, total: 2 } }));
    expect(details().open).toBe(true); // the next deal's scoreboard starts open
  });

  test("the stock and the pile are highlighted when the learner can draw, not greyed", () => {
    const model = mount({ view: makeView({ phase: "draw" }) });
    expect(el.querySelectorAll(".rw-can-draw")).toHaveLength(2);
    model.set("view", makeView({ rev: 4, phase: "play" }));
    expect(el.querySelectorAll(".rw-can-draw")).toHaveLength(0);
  });

  test("a meld's number on screen and in the log is the index the intents send", () => {
    const model = mount({
      view: makeView({
        phase: "play",
        hand: cards("6C 2S"),
        log: [{ type: "lay_off", player: 1, meld_index: 0, card: card("6C"), text: "Aino laid off 6 of clubs on meld 0." }],
      }),
    });
    expect(el.querySelector(".rw-meld-no")?.textContent).toBe("0");
    expect(el.querySelector(".rw-meld")?.getAttribute("aria-label")).toMatch(/^Set 0 of /);
    openDrawer(el);
    expect(el.querySelector(".rw-log li")?.textContent).toBe("Aino laid off 6 of clubs on meld 0.");
    button(el, "6 of clubs").click();
    button(el, "Lay off").click();
    expect(model.sent[0].action.meld_index).toBe(0);
  });

  test("melds lie in the order they were laid down, whoever owns them", () => {
    const melds = [
      { index: 0, owner: 1, kind: "set" as const, cards: cards("6S 6H 6D") },
      { index: 1, owner: 0, kind: "run" as const, cards: cards("7H 8H 9H") },
      { index: 2, owner: 1, kind: "run" as const, cards: cards("3D 4D 5D") },
    ];
    mount({ view: makeView({ melds }) });
    const numbers = [...el.querySelectorAll(".rw-meld-no")].map((e) => e.textContent);
    expect(numbers).toEqual(["0", "1", "2"]);
    const names = [...el.querySelectorAll(".rw-meld")].map(nameOf);
    expect(names[1]).toBe("Run 1 of You: 7 of hearts, 8 of hearts, 9 of hearts");
  });
});

describe("replay for teachers", () => {
  const replayView = (step: number, over: Partial<View> = {}) =>
    makeView({ mode: "replay", rev: step, replay: { step, total: 9 }, seat: 1, ...over });

  test("first, previous, next, last, a slider; the seat's own labels; no play controls", () => {
    const model = mount({ view: replayView(2) });
    for (const name of ["First move", "Previous move", "Play", "Next move", "Last move"]) {
      expect(button(el, name)).toBeTruthy();
    }
    for (const name of ["Meld", "Lay off", "Discard", "Hint"]) {
      expect([...el.querySelectorAll("button")].filter((b) => nameOf(b) === name)).toHaveLength(0);
    }
    const slider = el.querySelector("input[type=range]") as HTMLInputElement;
    expect(nameOf(slider)).toBe("Move");
    expect(el.textContent).toContain("Aino's hand");
    expect(el.textContent).not.toContain("Your hand");
    button(el, "Last move").click();
    expect(model.sent[0]).toEqual({ type: "replay", step: 9 });
    model.set("view", replayView(9));
    slider.value = "4";
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    expect(model.sent[1]).toEqual({ type: "replay", step: 4 });
  });

  test("the replay, the review and the log give a move one number; the whole log is in the drawer", () => {
    // After 17 moves the table shows move 18 at hand: the review's "Move 18" opens here.
    const log: LogEvent[] = [{ type: "deal", dealer: 1, text: "Aino dealt." }];
    for (let n = 1; n <= 17; n++) {
      log.push({ type: "draw", player: n % 2, source: "stock", move: n, text: `draw ${n}` });
    }
    const review = { summary: "", items: [{ move: 17, verdict: "mistake", cost: 2, label: "Move 18: mistake", reason: "" }] };
    mount({ view: makeView({ mode: "replay", replay: { step: 17, total: 41 }, log, review }) });
    expect(el.querySelector(".rw-replay-pos")?.textContent).toBe("Move 18 of 41");
    expect(el.querySelector("input[type=range]")?.getAttribute("aria-valuetext")).toBe("Move 18 of 41");
    expect(nameOf(el.querySelector(".rw-review button") as HTMLElement)).toBe("Move 18: mistake");
    openDrawer(el);
    const lines = [...el.querySelectorAll(".rw-log li")];
    expect(lines).toHaveLength(18); // every line of the deal, not only the last 15
    expect(lines[0].textContent).toBe("Aino dealt."); // a deal is no move: no number
    expect(lines[17].textContent).toBe("17. draw 17");
  });

  test("at the end of a replay every move is played", () => {
    mount({ view: replayView(9) });
    expect(el.querySelector(".rw-replay-pos")?.textContent).toBe("All 9 moves played");
  });

  test("a replay from the learner's own seat says your hand and your seat, not You's", () => {
    mount({ view: replayView(2, { seat: 0 }) });
    expect(el.textContent).toContain("Your hand");
    expect(el.textContent).toContain("Replay from your seat");
    expect(el.textContent).not.toContain("You's");
  });

  test("rapid clicks never drop a step: they add up while Python answers", () => {
    const model = mount({ view: replayView(2) });
    for (let i = 0; i < 3; i++) button(el, "Next move").click();
    expect(model.sent).toEqual([{ type: "replay", step: 3 }]);
    model.set("view", replayView(3));
    expect(model.sent.at(-1)).toEqual({ type: "replay", step: 5 });
    model.set("view", replayView(5));
    expect(model.sent).toHaveLength(2);
  });

  test("autoplay steps forward at the bot speed until the end", () => {
    vi.useFakeTimers();
    const model = mount({ view: replayView(8), bot_speed: "fast" });
    button(el, "Play").click();
    expect(button(el, "Pause")).toBeTruthy();
    vi.advanceTimersByTime(250);
    expect(model.sent).toEqual([{ type: "replay", step: 9 }]);
    model.set("view", replayView(9));
    vi.advanceTimersByTime(1000);
    expect(model.sent).toHaveLength(1);
    expect(button(el, "Play")).toBeTruthy();
  });

  test("the keyboard still plays a turn: Escape clears a selection without a redraw", () => {
    mount({ view: makeView({ phase: "play" }) });
    button(el, "ace of spades").click();
    expect(button(el, "Discard").getAttribute("aria-disabled")).toBeNull();
    key(button(el, "ace of spades"), "Escape");
    expect(button(el, "Discard").getAttribute("aria-disabled")).toBe("true");
  });
});
