// A fake anywidget model, a mounted table and a small table view for the front-end tests.
import { afterEach, beforeEach, vi } from "vitest";
import widget from "../src/index";
import type { Card, Model, View } from "../src/types";

type Handler = (...args: any[]) => void;

export class FakeModel implements Model {
  state: Record<string, unknown>;
  sent: any[] = [];
  saves = 0;
  private handlers = new Map<string, Set<Handler>>();

  constructor(state: Record<string, unknown>) {
    this.state = { lang: "en", four_color: false, size: "normal", bot_speed: "instant", ...state };
  }
  get(name: string): any {
    return this.state[name];
  }
  set(name: string, value: unknown): void {
    this.state[name] = value;
    for (const h of this.handlers.get(`change:${name}`) ?? []) h();
  }
  save_changes(): void {
    this.saves++;
  }
  on(event: string, callback: Handler): void {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(callback);
  }
  off(event?: string | null, callback?: Handler | null): void {
    if (event && callback) this.handlers.get(event)?.delete(callback);
  }
  send(content: unknown): void {
    this.sent.push(content);
  }
  /** A custom message from the kernel, as anywidget hands it to "msg:custom" handlers. */
  receive(content: unknown): void {
    for (const h of this.handlers.get("msg:custom") ?? []) h(content);
  }
  listeners(event: string): number {
    return this.handlers.get(event)?.size ?? 0;
  }
}

const SUITS = "SHDC";
const RANKS: Record<string, number> = { A: 1, J: 11, Q: 12, K: 13 };

/** A card by code, from deck 0 (or 1): the same ids as rummy_widget.engine.cards. */
export function card(code: string, deck = 0): Card {
  const text = code.slice(0, -1);
  const rank = RANKS[text] ?? Number(text);
  return { id: deck * 52 + SUITS.indexOf(code.slice(-1)) * 13 + rank - 1, code };
}

export function cards(text: string): Card[] {
  return text.split(" ").map((c) => card(c));
}

export function makeView(over: Partial<View> = {}): View {
  return {
    mode: "play",
    rev: 3,
    seat: 0,
    reveal: false,
    players: [
      { name: "You", hand_size: 10, has_melded: false },
      { name: "Aino", hand_size: 9, has_melded: true },
    ],
    dealer: 1,
    current_player: 0,
    phase: "draw",
    hand: cards("AS 10C QD 7H 8H 9H 2S 5D KC 3C"),
    penalty: 42,
    stock_size: 70,
    discard_pile: cards("4S JH"),
    melds: [{ index: 0, owner: 1, kind: "set", cards: cards("6S 6H 6D") }],
    taken_from_discard: null,
    log: [
      { type: "deal", dealer: 1, text: "Aino dealt." },
      { type: "draw", player: 1, source: "stock", text: "Aino drew from the stock." },
      { type: "meld", player: 1, meld_index: 0, cards: cards("6S 6H 6D"), text: "Aino melded 6 of spades, 6 of hearts, 6 of diamonds." },
      { type: "discard", player: 1, card: card("4S"), text: "Aino discarded 4 of spades." },
    ],
    result: null,
    scoreboard: null,
    rules: { name: "traditional", title: "Rules: Traditional", rows: [["Cards", "104"]] },
    hint: null,
    message: null,
    steps: [],
    replay: null,
    take_back: null,
    review: null,
    pass: null,
    deal: { number: 1, total: 1 },
    ...over,
  };
}

/** A control's accessible name as a screen reader computes it for these simple controls. */
export function nameOf(el: Element): string {
  const label = el.getAttribute("aria-label");
  if (label !== null) return label;
  const by = el.getAttribute("aria-labelledby");
  if (by) return (el.getRootNode() as Document).getElementById(by)?.textContent?.trim() ?? "";
  return (el.textContent ?? "").trim();
}

export function button(root: Element, name: string): HTMLElement {
  const found = [...root.querySelectorAll<HTMLElement>("button")].filter((b) => nameOf(b) === name);
  if (found.length !== 1) throw new Error(`${found.length} buttons named ${JSON.stringify(name)}`);
  return found[0];
}

export function key(el: Element, key: string, extra: KeyboardEventInit = {}): void {
  el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, ...extra }));
}

/** Open the drawer (settings, log, whole pile, rules), as a click on its summary does. */
export function openDrawer(root: Element): void {
  const drawer = root.querySelector("details.rw-drawer") as HTMLDetailsElement;
  drawer.open = true;
  drawer.dispatchEvent(new Event("toggle"));
}

/** A table mounted on a fresh element of the page for each test, torn down after it:
 * `table.mount(state)` returns the model, `table.el` is the element, `table.unmount()` ends it
 * early (the teardown test, a second mount in one test). */
export function mountedTable() {
  const table = {
    el: document.createElement("div"),
    cleanup: null as (() => void) | null,
    mount(state: Record<string, unknown>): FakeModel {
      const model = new FakeModel(state);
      table.el = document.createElement("div");
      document.body.append(table.el);
      table.cleanup = widget.render({ model, el: table.el });
      return model;
    },
    unmount(): void {
      table.cleanup?.();
      table.cleanup = null;
    },
  };
  beforeEach(() => document.body.replaceChildren());
  afterEach(() => {
    table.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  return table;
}
