import { describe, expect, test, vi } from "vitest";
import { TableController } from "../src/index";
import { button, card, cards, key, makeView, mountedTable, nameOf, openDrawer } from "./helpers";

const table = mountedTable();
let el: HTMLElement;

function mount(state: Record<string, unknown>) {
  const model = table.mount(state);
  el = table.el;
  return model;
}

function handButtons(): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>(".rw-hand button")];
}

describe("rendering", () => {
  test("the root suppresses JupyterLab shortcuts and has the live regions", () => {
    mount({ view: makeView() });
    const root = el.querySelector(".rw-root") as HTMLElement;
    expect(root.dataset.lmSuppressShortcuts).toBe("true");
    expect(root.querySelector("[aria-live=polite]")).not.toBeNull();
    expect(root.querySelector("[role=alert]")).not.toBeNull();
    expect(root.getAttribute("lang")).toBe("en");
  });

  test("main controls have their English names", () => {
    mount({ view: makeView({ phase: "play", hand: cards("AS 10C QD 7H 8H 9H 2S 5D KC 3C JS") }) });
    for (const name of ["Stock", "Discard pile", "Meld", "Lay off", "Discard", "Sort", "Hint"]) {
      expect(button(el, name)).toBeTruthy();
    }
  });

  test("cards are buttons named by the card", () => {
    mount({ view: makeView() });
    const names = handButtons().map(nameOf);
    expect(names).toContain("ace of spades");
    expect(names).toContain("10 of clubs");
    expect(names).toContain("queen of diamonds");
    expect(handButtons()).toHaveLength(10);
  });

  test("opponents show a count and card backs that say nothing about the cards", () => {
    mount({ view: makeView() });
    const seat = el.querySelector(".rw-seat") as HTMLElement;
    expect(seat.textContent).toContain("Aino");
    expect(seat.textContent).toContain("9 cards");
    const backs = seat.querySelectorAll(".rw-back");
    expect(backs).toHaveLength(9);
    for (const back of backs) {
      expect(back.getAttribute("aria-hidden")).toBe("true");
      expect(back.textContent).toBe("");
      expect(back.attributes.length).toBe(2); // class and aria-hidden only
    }
  });

  test("no card identity outside the visible cards reaches the DOM", () => {
    const view = makeView();
    mount({ view });
    const visible = new Set(
      [...view.hand, ...view.discard_pile, ...view.melds.flatMap((m) => m.cards)].map((c) => c.id),
    );
    for (const node of el.querySelectorAll("[data-card]")) {
      expect(visible.has(Number((node as HTMLElement).dataset.card))).toBe(true);
    }
    // The stock button says only "Stock"; its picture is a back.
    const stock = button(el, "Stock");
    expect(stock.querySelector(".rw-back")).not.toBeNull();
    expect(stock.innerHTML).not.toContain("currentColor"); // no face is drawn in it
  });

  test("stock size, discard top, melds grouped by owner, penalty, log and rules", () => {
    mount({ view: makeView() });
    expect(el.querySelector(".rw-rules")).toBeNull(); // a closed drawer draws no panels
    openDrawer(el);
    expect(el.textContent).toContain("70 cards");
    expect(el.textContent).toContain("Top card: 4 of spades");
    expect(el.querySelector(".rw-owner-name")?.textContent).toBe("Aino");
    const meld = el.querySelector(".rw-meld") as HTMLElement;
    expect(nameOf(meld)).toBe("Set 0 of Aino: 6 of spades, 6 of hearts, 6 of diamonds");
    expect(el.textContent).toContain("Penalty points in your hand: 42");
    expect(el.textContent).toContain("Aino discarded 4 of spades.");
    expect(el.querySelector(".rw-rules")?.textContent).toContain("104");
    // The whole pile is viewable, top first.
    const pile = [...el.querySelectorAll(".rw-pile-list [role=img]")].map(nameOf);
    expect(pile).toEqual(["4 of spades", "jack of hearts"]);
  });

  test("one card is said in the singular", () => {
    const view = makeView({ discard_pile: cards("4S") });
    view.players[1].hand_size = 1;
    mount({ view, lang: "fi" });
    openDrawer(el);
    expect(el.querySelector(".rw-seat")?.textContent).toContain("1 kortti");
    expect(el.querySelector(".rw-pile-title")?.textContent).toBe("Koko poistopakka (1 kortti)");
  });

  test("four-colour deck and large size switch classes", () => {
    const model = mount({ view: makeView() });
    const root = el.querySelector(".rw-root") as HTMLElement;
    expect(root.classList.contains("rw-four")).toBe(false);
    model.set("four_color", true);
    model.set("size", "large");
    expect(root.classList.contains("rw-four")).toBe(true);
    expect(root.classList.contains("rw-large")).toBe(true);
  });

  test("reveal shows the other hands face up", () => {
    const view = makeView({ reveal: true });
    view.players[1].hand = cards("2H 3H 4H");
    mount({ view });
    const seat = el.querySelector(".rw-seat") as HTMLElement;
    expect([...seat.querySelectorAll("[role=img]")].map(nameOf)).toEqual([
      "2 of hearts",
      "3 of hearts",
      "4 of hearts",
    ]);
  });
});

describe("selection and intents", () => {
  test("drawing sends an intent with the view's revision", () => {
    const model = mount({ view: makeView() });
    button(el, "Stock").click();
    expect(model.sent).toEqual([{ type: "action", rev: 3, action: { type: "draw", source: "stock" } }]);
  });

  test("one intent at a time until a new view arrives", () => {
    const model = mount({ view: makeView() });
    button(el, "Stock").click();
    button(el, "Discard pile").click();
    expect(model.sent).toHaveLength(1);
    model.set("view", makeView({ message: { id: 1, kind: "error", text: "No." } }));
    button(el, "Discard pile").click();
    expect(model.sent).toHaveLength(2);
    expect(model.sent[1].action).toEqual({ type: "draw", source: "discard" });
  });

  test("selecting cards and melding them", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    for (const name of ["7 of hearts", "8 of hearts", "9 of hearts"]) button(el, name).click();
    expect(button(el, "8 of hearts").getAttribute("aria-pressed")).toBe("true");
    expect(button(el, "Meld").getAttribute("aria-disabled")).toBeNull();
    button(el, "Meld").click();
    expect(model.sent[0].type).toBe("action");
    expect(model.sent[0].action.type).toBe("meld");
    expect([...model.sent[0].action.cards].sort()).toEqual([19, 20, 21]);
  });

  test("a disabled control explains itself instead of sending", () => {
    const model = mount({ view: makeView({ phase: "draw" }) });
    button(el, "ace of spades").click();
    button(el, "Discard").click();
    expect(model.sent).toHaveLength(0);
    expect(el.querySelector("[role=alert]")?.textContent).toContain("Draw a card first");
  });

  test("lay off onto the chosen meld", () => {
    const model = mount({ view: makeView({ phase: "play", hand: cards("6C 2S 5D") }) });
    button(el, "6 of clubs").click();
    button(el, "Lay off").click();
    expect(model.sent[0].action).toEqual({ type: "lay_off", card: card("6C").id, meld_index: 0 });
  });

  test("a new revision clears the selection; server messages are shown", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    button(el, "ace of spades").click();
    model.set("view", makeView({ phase: "play", message: { id: 4, kind: "error", text: "Nope" } }));
    expect(button(el, "ace of spades").getAttribute("aria-pressed")).toBe("true");
    expect(el.querySelector("[role=alert]")?.textContent).toBe("Nope");
    model.set("view", makeView({ rev: 4, phase: "play" }));
    expect(button(el, "ace of spades").getAttribute("aria-pressed")).toBe("false");
  });

  test("take back: absent when not offered, sent to Python even when disabled", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    expect(el.querySelector(".rw-act-takeback")).toBeNull();
    model.set("view", makeView({ phase: "play", take_back: true }));
    expect(button(el, "Take back").getAttribute("aria-disabled")).toBeNull();
    button(el, "Take back").click();
    expect(model.sent[0]).toEqual({ type: "take_back", rev: 3 });
    model.set("view", makeView({ rev: 4, phase: "play", take_back: false }));
    button(el, "Take back").click(); // refused in Python, which names the reason
    expect(button(el, "Take back").getAttribute("aria-disabled")).toBe("true");
    expect(model.sent[1]).toEqual({ type: "take_back", rev: 4 });
    model.set("lang", "fi");
    expect(button(el, "Peru siirto")).toBeTruthy();
  });

  test("review: the button at the end, Python's progress line, the list opens the replay", () => {
    const board = { winner: 0, rummy: false, void: false, bonus: 0, penalties: [0, 12], deal: 1, deals: 1, totals: [0, 12], match_over: true, outcome: "You went out.", standing: null };
    const model = mount({ view: makeView({ phase: "over", scoreboard: board }) });
    button(el, "Review").click();
    expect(model.sent[0]).toEqual({ type: "review", rev: 3 });
    model.set("progress", "Reviewing the deal: move 2 of 9…");
    expect(el.querySelector("[role=alert]")?.textContent).toBe("Reviewing the deal: move 2 of 9…");
    model.set("progress", "");
    const review = { summary: "Looked at 9 decisions: 1 mistake, no finds.", items: [{ move: 4, verdict: "mistake", cost: 7.5, label: "Move 5: mistake, 7.5 points", reason: "Better: meld." }] };
    model.set("view", makeView({ rev: 4, phase: "over", scoreboard: board, review }));
    expect(el.querySelector(".rw-act-review")).toBeNull();
    expect(el.querySelector(".rw-review")?.textContent).toContain("Better: meld.");
    button(el, "Move 5: mistake, 7.5 points").click();
    expect(model.sent[1]).toEqual({ type: "review_open", move: 4 });
    model.set("view", makeView({ rev: 5, mode: "replay", replay: { step: 4, total: 20 }, review }));
    button(el, "Back to the table").click();
    expect(model.sent[2]).toEqual({ type: "review_close" });
  });

  test("hot seat: the pass screen shows no card and its button says who goes on", () => {
    const pass = { title: "Pass the screen to Bo.", go: "I am Bo: show my hand" };
    const model = mount({ view: makeView({ hand: [], pass }) });
    expect(el.querySelectorAll("[data-card]")).toHaveLength(0);
    expect(el.textContent).toContain("Pass the screen to Bo.");
    button(el, "I am Bo: show my hand").click();
    expect(model.sent[0]).toEqual({ type: "pass_ready" });
  });

  test("hot seat: the pass screen keeps the height the table had", () => {
    const pass = { title: "Pass the screen to Bo.", go: "I am Bo: show my hand" };
    const model = mount({ view: makeView({ rev: 3 }) });
    const table = el.querySelector<HTMLElement>(".rw-board") as HTMLElement;
    Object.defineProperty(table, "offsetHeight", { value: 480, configurable: true }); // jsdom lays nothing out
    model.set("view", makeView({ rev: 4, hand: [], pass }));
    const screen = el.querySelector<HTMLElement>(".rw-pass") as HTMLElement;
    expect(screen.style.minHeight).toBe("480px");
    // The next pass screen, drawn over this one, keeps the table's height, not its own.
    Object.defineProperty(screen, "offsetHeight", { value: 120, configurable: true });
    model.set("view", makeView({ rev: 5, hand: [], pass: { ...pass, title: "Pass the screen to Ann." } }));
    expect(el.querySelector<HTMLElement>(".rw-pass")?.style.minHeight).toBe("480px");
  });

  test("hint shows the expert's suggestion and marks its card", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    button(el, "Hint").click();
    expect(model.sent[0]).toEqual({ type: "hint", rev: 3 });
    model.set(
      "view",
      makeView({
        phase: "play",
        hint: { action: { type: "discard", card: card("KC") }, text: "Discard king of clubs. High card." },
      }),
    );
    expect(el.querySelector(".rw-hint")?.textContent).toBe("Discard king of clubs. High card.");
    expect(button(el, "king of clubs").classList.contains("rw-hinted")).toBe(true);
    expect(el.querySelector("[aria-live=polite]")?.textContent).toContain("High card.");
    button(el, "Hint").click(); // already shown: said again, not asked again
    expect(model.sent).toHaveLength(1);
  });

  test("a hint after an error takes the message line: the newest message wins", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    button(el, "Discard").click(); // no card selected: the table says so
    const alert = () => el.querySelector("[role=alert]")?.textContent;
    expect(alert()).toBe("Select exactly one card from your hand first.");
    const hint = { action: { type: "discard" as const, card: card("KC") }, text: "Discard king of clubs." };
    model.set("view", makeView({ phase: "play", hint }));
    expect(alert()).toBe("");
    expect(el.querySelector(".rw-hint")?.textContent).toBe("Discard king of clubs.");
    button(el, "Discard").click(); // an error after the hint shows; Hint again puts the hint first
    expect(alert()).toBe("Select exactly one card from your hand first.");
    button(el, "Hint").click();
    expect(alert()).toBe("");
    expect(model.sent).toHaveLength(0);
  });

  test("Why? beside the hint opens the bot's detailed reason, in the table's language", () => {
    const hint = {
      action: { type: "discard" as const, card: card("KC") },
      text: "Discard K♣: it is worth too much.",
      why: "K♣ is worth 10 points. Without it, 14 unseen cards could still complete a meld.",
    };
    const model = mount({ view: makeView({ phase: "play", hint }) });
    const details = () => el.querySelector<HTMLDetailsElement>(".rw-line details.rw-why");
    expect(details()?.open).toBe(false); // closed at first: the hint itself stays one line
    expect(details()?.querySelector("summary")?.textContent).toBe("Why?");
    expect(details()?.querySelector("p")?.textContent).toBe(hint.why);
    (details() as HTMLDetailsElement).open = true;
    details()?.dispatchEvent(new Event("toggle"));
    model.set("lang", "fi");
    model.set("view", makeView({ phase: "play", hint: { ...hint, why: "K♣:sta tulee 10 pistettä." } }));
    expect(details()?.open).toBe(true); // the same hint in Finnish: still open
    expect(details()?.querySelector("summary")?.textContent).toBe("Miksi?");
    expect(details()?.textContent).toContain("K♣:sta tulee 10 pistettä.");
    model.set("view", makeView({ phase: "play", rev: 4, hint }));
    expect(details()?.open).toBe(false); // the next position's hint starts closed
    model.set("view", makeView({ phase: "play", rev: 5, hint: { ...hint, why: hint.text } }));
    expect(details()).toBeNull(); // nothing more to say than the hint
  });

  test("a hint to draw or to lay off marks the pile or the meld", () => {
    const model = mount({
      view: makeView({ hint: { action: { type: "draw", source: "discard" }, text: "Take it." } }),
    });
    expect(button(el, "Discard pile").classList.contains("rw-hinted")).toBe(true);
    expect(button(el, "Stock").classList.contains("rw-hinted")).toBe(false);
    model.set(
      "view",
      makeView({
        phase: "play",
        hint: { action: { type: "lay_off", card: card("AS"), meld_index: 0 }, text: "Lay it off." },
      }),
    );
    expect(el.querySelector(".rw-meld")?.classList.contains("rw-hinted")).toBe(true);
    expect(button(el, "ace of spades").classList.contains("rw-hinted")).toBe(true);
  });

  test("sorting by rank and by suit", () => {
    mount({ view: makeView({ hand: cards("2C AH KS") }) });
    const order = () => handButtons().map(nameOf);
    expect(order()).toEqual(["king of spades", "ace of hearts", "2 of clubs"]); // by suit at first
    const select = el.querySelector("[data-rw-set=sortby]") as HTMLSelectElement;
    select.value = "rank";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(order()).toEqual(["ace of hearts", "2 of clubs", "king of spades"]);
    const ace = button(el, "ace of hearts");
    ace.focus();
    key(ace, "End", { shiftKey: true });
    expect(order()).toEqual(["2 of clubs", "king of spades", "ace of hearts"]);
    button(el, "Sort").click();
    expect(order()).toEqual(["ace of hearts", "2 of clubs", "king of spades"]);
    expect(el.querySelector("[role=alert]")?.textContent).toBe("Your hand is sorted by rank.");
  });

  test("Sort on a hand already in order sorts it the other way and says so", () => {
    mount({ view: makeView({ hand: cards("2C AH KS") }) }); // auto-sort by suit: in order
    const order = () => handButtons().map(nameOf);
    const alert = () => el.querySelector("[role=alert]")?.textContent;
    button(el, "Sort").click();
    expect(order()).toEqual(["ace of hearts", "2 of clubs", "king of spades"]);
    expect(alert()).toBe("Your hand is sorted by rank.");
    expect(el.querySelector(".rw-message")?.classList.contains("rw-notice")).toBe(true); // no ⚠
    expect((el.querySelector("[data-rw-set=sortby]") as HTMLSelectElement).value).toBe("rank");
    button(el, "Sort").click();
    expect(order()).toEqual(["king of spades", "ace of hearts", "2 of clubs"]);
    expect(alert()).toBe("Your hand is sorted by suit.");
    button(el, "Discard").click(); // an error afterwards is an error again
    expect(el.querySelector(".rw-message")?.classList.contains("rw-notice")).toBe(false);
  });

  test("a take-back's word from Python is a notice, not an error", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    const message = { id: 1, kind: "info", text: "Taken back: your meld 7♥ 8♥ 9♥ is in your hand again." };
    model.set("view", makeView({ rev: 4, phase: "play", message }));
    const line = el.querySelector(".rw-message") as HTMLElement;
    expect(line.textContent).toBe(message.text);
    expect(line.classList.contains("rw-notice")).toBe(true);
  });

  test("a drawn card goes where the sort puts it, or to the right end without auto-sort", () => {
    const model = mount({ view: makeView({ hand: cards("KC AS") }) });
    model.set("view", makeView({ rev: 4, phase: "play", hand: cards("KC AS 5H") }));
    expect(handButtons().map(nameOf)).toEqual(["ace of spades", "5 of hearts", "king of clubs"]);
    expect(button(el, "5 of hearts").classList.contains("rw-fresh")).toBe(true);
    const auto = el.querySelector("[data-rw-set=auto_sort]") as HTMLInputElement;
    auto.checked = false;
    auto.dispatchEvent(new Event("change", { bubbles: true }));
    model.set("view", makeView({ rev: 5, phase: "play", hand: cards("KC AS 5H 2S") }));
    expect(handButtons().map(nameOf)).toEqual(["ace of spades", "5 of hearts", "king of clubs", "2 of spades"]);
  });
});

describe("redrawing", () => {
  test("a new view patches the table in place: kept cards and the focus stay put", () => {
    const model = mount({ view: makeView({ phase: "play" }) });
    const seven = button(el, "7 of hearts");
    const stock = button(el, "Stock");
    seven.focus();
    // The learner melds 7-8-9 of hearts: those leave the hand, the rest stay.
    const hand = cards("AS 10C QD 2S 5D KC 3C");
    const melds = [...makeView().melds, { index: 1, owner: 0, kind: "run" as const, cards: cards("7H 8H 9H") }];
    model.set("view", makeView({ phase: "play", rev: 4, hand, melds }));
    expect(button(el, "Stock")).toBe(stock); // the same element, patched, not a new one
    expect(handButtons().map(nameOf)).toContain("ace of spades");
    expect(el.contains(seven)).toBe(false);
    // The focused card went to the table: focus moves to a card still in the hand.
    const active = (el.getRootNode() as Document).activeElement as HTMLElement;
    expect(handButtons()).toContain(active);
    const ace = button(el, "ace of spades");
    ace.focus();
    model.set("view", makeView({ phase: "draw", rev: 5, hand }));
    expect(button(el, "ace of spades")).toBe(ace);
    expect((el.getRootNode() as Document).activeElement).toBe(ace);
  });

  test("a setting changed from Python redraws the same elements in the new language", () => {
    const model = mount({ view: makeView() });
    const stock = button(el, "Stock");
    model.set("lang", "fi");
    expect(button(el, "Nostopakka")).toBe(stock);
  });
});

describe("keyboard", () => {
  test("a whole turn without the mouse", () => {
    const model = mount({ view: makeView({ hand: cards("AS 2S 3S KC") }) });
    const root = el.querySelector(".rw-root") as HTMLElement;
    key(button(el, "ace of spades"), "s"); // draw from the stock
    expect(model.sent[0].action).toEqual({ type: "draw", source: "stock" });
    model.set("view", makeView({ rev: 4, phase: "play", hand: cards("AS 2S 3S KC 9D") }));
    const first = button(el, "ace of spades");
    first.focus();
    key(first, "ArrowRight");
    expect((root.getRootNode() as Document).activeElement).toBe(button(el, "2 of spades"));
    // Space or Enter on a focused button clicks it; select three cards.
    button(el, "ace of spades").click();
    button(el, "2 of spades").click();
    button(el, "3 of spades").click();
    key(button(el, "3 of spades"), "m");
    expect(model.sent[1].action.type).toBe("meld");
    model.set("view", makeView({ rev: 5, phase: "play", hand: cards("KC 9D") }));
    button(el, "king of clubs").click();
    key(button(el, "king of clubs"), "d");
    expect(model.sent[2].action).toEqual({ type: "discard", card: card("KC").id });
  });

  test("only one hand card is in the tab order; Shift+arrow moves a card", () => {
    mount({ view: makeView({ hand: cards("AS 2S 3S") }) });
    expect(handButtons().filter((b) => b.tabIndex === 0)).toHaveLength(1);
    const ace = button(el, "ace of spades");
    ace.focus();
    key(ace, "ArrowRight", { shiftKey: true });
    expect(handButtons().map(nameOf)).toEqual(["2 of spades", "ace of spades", "3 of spades"]);
    const root = el.querySelector(".rw-root") as HTMLElement;
    expect(nameOf((root.getRootNode() as Document).activeElement as Element)).toBe("ace of spades");
  });

  test("arrow keys work even where the page stops them at the document (Notebook 7)", () => {
    const seen: string[] = [];
    const notebook = (e: KeyboardEvent) => {
      seen.push(e.key);
      if (e.key.startsWith("Arrow")) e.stopPropagation();
    };
    document.addEventListener("keydown", notebook, true);
    try {
      mount({ view: makeView({ hand: cards("AS 2S 3S") }) });
      const ace = button(el, "ace of spades");
      ace.focus();
      key(ace, "ArrowRight");
      const root = el.querySelector(".rw-root") as HTMLElement;
      expect(nameOf((root.getRootNode() as Document).activeElement as Element)).toBe("2 of spades");
      key(button(el, "2 of spades"), "Enter", { shiftKey: true }); // run the cell: the page's
      key(button(el, "2 of spades"), "s", { ctrlKey: true }); // save: the page's
      expect(seen).toEqual(["Enter", "s"]);
    } finally {
      document.removeEventListener("keydown", notebook, true);
    }
  });

  test("no key pressed in the table reaches the notebook's shortcuts, on any control", () => {
    // JupyterLab's command mode: arrows move to another cell, D D deletes one, X cuts one.
    const seen: string[] = [];
    const notebook = (e: KeyboardEvent) => seen.push(e.key);
    document.addEventListener("keydown", notebook);
    try {
      mount({ view: makeView({ phase: "play" }) });
      openDrawer(el);
      const controls = [
        '.rw-hand [data-card="0"]',
        '[data-rw-act="sort"]',
        '[data-rw-act="stock"]',
        ".rw-meld",
        ".rw-drawer > summary",
        '[data-rw-set="lang"]',
      ];
      for (const selector of controls) {
        for (const k of ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "d", "D", "x", "a", "Enter", " "]) {
          const control = el.querySelector<HTMLElement>(selector);
          expect(control?.isConnected).toBe(true);
          key(control as HTMLElement, k);
        }
      }
      expect(seen).toEqual([]);
    } finally {
      document.removeEventListener("keydown", notebook);
    }
  });

  test("Escape clears the selection", () => {
    mount({ view: makeView({ phase: "play" }) });
    button(el, "ace of spades").click();
    key(button(el, "ace of spades"), "Escape");
    expect(button(el, "ace of spades").getAttribute("aria-pressed")).toBe("false");
  });
});

describe("language", () => {
  test("the rules table may come on its own trait, as the widget syncs it", () => {
    const view = makeView() as any;
    delete view.rules;
    const model = mount({ view, rules: { name: "traditional", title: "Rules: Traditional", rows: [["Cards", "104"]] } });
    openDrawer(el);
    expect(el.querySelector(".rw-rules caption")?.textContent).toBe("Rules: Traditional");
    model.set("rules", { name: "traditional", title: "Säännöt", rows: [["Kortit", "104"]] });
    expect(el.querySelector(".rw-rules caption")?.textContent).toBe("Säännöt");
  });

  test("switching in the UI sets the lang trait and renders Finnish", () => {
    const model = mount({ view: makeView() });
    const select = el.querySelector("[data-rw-set=lang]") as HTMLSelectElement;
    select.value = "fi";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.state.lang).toBe("fi");
    expect(model.saves).toBe(1);
    expect(button(el, "Nostopakka")).toBeTruthy();
    expect(button(el, "Poistopakka")).toBeTruthy();
    expect(button(el, "pataässä")).toBeTruthy();
    expect(button(el, "ruutukuningatar")).toBeTruthy();
    expect((el.querySelector(".rw-root") as HTMLElement).getAttribute("lang")).toBe("fi");
  });

  test("a lang change from Python re-renders", () => {
    const model = mount({ view: makeView() });
    model.set("lang", "fi");
    expect(el.textContent).toContain("Sinun kätesi");
    model.set("lang", "en");
    expect(el.textContent).toContain("Your hand");
  });
});

describe("bot moves", () => {
  const stepsView = () =>
    makeView({
      rev: 4,
      steps: [
        {
          actor: 1,
          events: [{ type: "draw", player: 1, source: "stock", text: "Aino drew from the stock." }],
          table: {
            players: [
              { hand_size: 10, has_melded: false },
              { hand_size: 10, has_melded: true },
            ],
            current_player: 1,
            stock_size: 71,
            discard_top: card("JH"),
            discard_size: 1,
            melds: [],
          },
        },
        {
          actor: 1,
          events: [{ type: "discard", player: 1, card: card("4S"), text: "Aino discarded 4 of spades." }],
          table: {
            players: [
              { hand_size: 10, has_melded: false },
              { hand_size: 9, has_melded: true },
            ],
            current_player: 0,
            stock_size: 70,
            discard_top: card("4S"),
            discard_size: 2,
            melds: [],
          },
        },
      ],
    });

  test("are animated one by one at the bot speed and announced", () => {
    vi.useFakeTimers();
    const model = mount({ view: makeView({ rev: 3 }), bot_speed: "normal" });
    model.set("view", stepsView());
    const live = el.querySelector("[aria-live=polite]") as HTMLElement;
    expect(live.textContent).toBe("Aino drew from the stock.");
    expect(el.textContent).toContain("71 cards");
    expect(el.querySelector(".rw-status")?.textContent).toBe("Aino draws from the stock");
    expect(button(el, "Stock").getAttribute("aria-disabled")).toBe("true");
    vi.advanceTimersByTime(700);
    expect(live.textContent).toBe("Aino discarded 4 of spades.");
    vi.advanceTimersByTime(700);
    expect(el.textContent).toContain("70 cards");
    expect(button(el, "Stock").getAttribute("aria-disabled")).toBeNull();
  });

  test("at instant speed they are announced together and the table is final", () => {
    const model = mount({ view: makeView({ rev: 3 }) });
    model.set("view", stepsView());
    expect(el.querySelector("[aria-live=polite]")?.textContent).toBe(
      "Aino drew from the stock. Aino discarded 4 of spades.",
    );
    expect(button(el, "Stock").getAttribute("aria-disabled")).toBeNull();
  });

  test("Escape skips the animation", () => {
    vi.useFakeTimers();
    const model = mount({ view: makeView({ rev: 3 }), bot_speed: "slow" });
    model.set("view", stepsView());
    key(el.querySelector(".rw-root") as HTMLElement, "Escape");
    expect(el.querySelector("[aria-live=polite]")?.textContent).toBe("Aino discarded 4 of spades.");
    expect(button(el, "Stock").getAttribute("aria-disabled")).toBeNull();
  });
});

describe("end of deal and replay", () => {
  test("scoreboard with totals and Next deal", () => {
    const model = mount({
      view: makeView({
        phase: "over",
        scoreboard: {
          winner: 1,
          rummy: true,
          void: false,
          bonus: 25,
          penalties: [67, 0],
          deal: 1,
          deals: 3,
          totals: [67, 0],
          match_over: false,
          outcome: "Aino went Rummy (the bonus: 25).",
          standing: null,
        },
      }),
    });
    const score = el.querySelector(".rw-score") as HTMLElement;
    expect(score.textContent).toContain("Aino went Rummy");
    expect(score.textContent).toContain("67");
    expect(score.textContent).toContain("Deal 1 of 3");
    button(el, "Next deal").click();
    expect(model.sent[0]).toEqual({ type: "next_deal", rev: 3 });
  });

  test("at the end of the deal the other hands are shown face up", () => {
    mount({
      view: makeView({
        phase: "over",
        result: { winner: 0, rummy: false, void: false, penalties: [0, 9], hands: [[], cards("4C 5C")] },
      }),
    });
    const seat = el.querySelector(".rw-seat") as HTMLElement;
    expect([...seat.querySelectorAll("[role=img]")].map(nameOf)).toEqual(["4 of clubs", "5 of clubs"]);
  });

  test("replay steps forward and back", () => {
    const model = mount({ view: makeView({ mode: "replay", rev: 2, replay: { step: 2, total: 9 } }) });
    expect(el.textContent).toContain("Move 3 of 9"); // two moves played: the third is at hand
    button(el, "Next move").click();
    expect(model.sent[0]).toEqual({ type: "replay", step: 3 });
    model.set("view", makeView({ mode: "replay", rev: 3, replay: { step: 3, total: 9 } }));
    button(el, "Previous move").click();
    expect(model.sent[1]).toEqual({ type: "replay", step: 2 });
    expect(button(el, "Stock").getAttribute("aria-disabled")).toBe("true");
  });
});

test("cleanup removes listeners and the DOM", () => {
  const model = mount({ view: makeView() });
  expect(model.listeners("change:view")).toBe(1);
  table.unmount();
  expect(model.listeners("change:view")).toBe(0);
  expect(el.querySelector(".rw-root")).toBeNull();
  expect(TableController).toBeTypeOf("function");
});
