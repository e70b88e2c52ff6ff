// anywidget entry point: the card table controller. Python owns the game; this file renders the
// seat's view, keeps the learner's local choices (selection, hand order) and sends intents.
import morphdom from "morphdom";
import {
  moves,
  orderedHand,
  logText,
  youSeat,
  renderBoard,
  tableOf,
  type Settings,
  type SortBy,
  type Speed,
  type TableState,
  type UiState,
} from "./board";
import { h } from "./dom";
import { face, isLang, t, type Lang } from "./i18n";
import type { Model, Step, View } from "./types";

/** Milliseconds per animated bot move. */
export const DELAYS: Record<Speed, number> = { instant: 0, fast: 250, normal: 700, slow: 1400 };
const SUIT_ORDER = "SHCD";
const SHORTCUTS: Record<string, string> = {
  s: "stock",
  p: "pile",
  m: "meld",
  l: "layoff",
  d: "discard",
  h: "hint",
  o: "sort",
  n: "next",
};

let instances = 0;

export class TableController {
  readonly root: HTMLElement;
  private readonly host: HTMLElement;
  private readonly alert: HTMLElement;
  private readonly live: HTMLElement;
  private readonly id: string;
  private readonly win: Window;
  private view: View | null = null;
  private lastRev: number | null = null;
  private lastMessage = 0;
  private lastHint = "";
  private shown: TableState | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private steps: Step[] = [];
  readonly ui: UiState = {
    order: [],
    selected: new Set(),
    target: null,
    sortBy: "suit",
    open: new Set(["log"]),
    fresh: new Set(),
  };

  constructor(
    private readonly model: Model,
    el: HTMLElement,
  ) {
    this.id = `rw${++instances}`;
    this.host = h("div", { class: "rw-host" });
    this.alert = h("div", { class: "rw-message", role: "alert" });
    this.live = h("div", { class: "rw-sr-only", "aria-live": "polite", "aria-atomic": "true" });
    this.root = h(
      "div",
      { class: "rw-root", "data-lm-suppress-shortcuts": "true" },
      this.host,
      this.alert,
      this.live,
    );
    this.root.addEventListener("click", this.onClick);
    // Keys are taken at the window, in the capture phase: Notebook 7 stops arrow keys at the
    // document before they reach any output (jupyter/notebook#7716). Only keys from inside
    // this table that it uses are taken; everything else flows on untouched.
    this.win = el.ownerDocument.defaultView ?? window;
    this.win.addEventListener("keydown", this.onKey, true);
    this.root.addEventListener("change", this.onChange);
    el.append(this.root);
    model.on("change:view", this.onView);
    for (const name of ["lang", "four_color", "size", "bot_speed"]) {
      model.on(`change:${name}`, this.onSettings);
    }
    this.onView();
  }

  destroy(): void {
    this.model.off("change:view", this.onView);
    for (const name of ["lang", "four_color", "size", "bot_speed"]) {
      this.model.off(`change:${name}`, this.onSettings);
    }
    this.stopAnimation();
    if (this.pending) clearTimeout(this.pending);
    this.win.removeEventListener("keydown", this.onKey, true);
    this.root.remove();
  }

  settings(): Settings {
    const lang = this.model.get("lang");
    const speed = this.model.get("bot_speed");
    return {
      lang: isLang(lang) ? lang : "en",
      fourColor: Boolean(this.model.get("four_color")),
      size: this.model.get("size") === "large" ? "large" : "normal",
      speed: speed in DELAYS ? (speed as Speed) : "normal",
    };
  }

  private get lang(): Lang {
    return this.settings().lang;
  }

  // --- view updates ---------------------------------------------------------------------

  private onView = (): void => {
    const view = this.model.get("view") as View | undefined;
    if (!view || !Array.isArray(view.players) || !view.players.length) return;
    const revChanged = view.rev !== this.lastRev;
    const first = this.lastRev === null;
    this.view = view;
    this.lastRev = view.rev;
    this.updateHand(view, revChanged, first);
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
    if (view.message && view.message.id !== this.lastMessage) {
      this.lastMessage = view.message.id;
      this.alert.textContent = view.message.text;
    } else if (revChanged) {
      this.alert.textContent = "";
    }
    if (view.hint && view.hint.text !== this.lastHint) this.announce(view.hint.text);
    this.lastHint = view.hint?.text ?? "";
    if (revChanged) {
      this.stopAnimation();
      if (view.replay) this.announce(t(this.lang, "ui.replay.step", { n: view.replay.step, total: view.replay.total }));
      if (view.steps.length) {
        if (this.settings().speed === "instant") {
          this.announce(view.steps.flatMap((s) => this.eventTexts(s)).join(" "));
        } else {
          this.steps = [...view.steps];
          this.nextStep();
          return;
        }
      }
    }
    if (!this.timer) this.draw();
  };

  private onSettings = (): void => {
    this.draw(this.shown ?? undefined);
  };

  private updateHand(view: View, revChanged: boolean, first: boolean): void {
    const ids = view.hand.map((c) => c.id);
    const held = new Set(ids);
    const kept = this.ui.order.filter((id) => held.has(id));
    const added = ids.filter((id) => !kept.includes(id));
    this.ui.order = [...kept, ...added];
    this.ui.fresh = new Set(first || !kept.length ? [] : added);
    if (!kept.length) this.sortHand();
    if (revChanged) {
      this.ui.selected.clear();
      this.ui.target = null;
    } else {
      for (const id of [...this.ui.selected]) if (!held.has(id)) this.ui.selected.delete(id);
    }
  }

  private eventTexts(step: Step): string[] {
    const names = (this.view?.players ?? []).map((p) => p.name);
    const you = this.view ? youSeat(this.view) : -1;
    return step.events.map((e) => logText(this.lang, names, e, you));
  }

  private nextStep = (): void => {
    const view = this.view;
    const step = this.steps.shift();
    this.timer = null;
    if (!view || !step) {
      this.draw();
      return;
    }
    const snap = step.table;
    this.draw({
      players: view.players.map((p, i) => ({ ...p, ...snap.players[i] })),
      current_player: snap.current_player,
      stock_size: snap.stock_size,
      discard_top: snap.discard_top,
      discard_size: snap.discard_size,
      melds: snap.melds,
      animating: true,
    });
    this.announce(this.eventTexts(step).join(" "));
    this.timer = setTimeout(this.nextStep, DELAYS[this.settings().speed] || DELAYS.fast);
  };

  private stopAnimation(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.steps = [];
  }

  /** Show the rest of the bots' moves at once. */
  skipAnimation(): void {
    if (!this.timer) return;
    const rest = this.steps.flatMap((s) => this.eventTexts(s));
    this.stopAnimation();
    if (rest.length) this.announce(rest.join(" "));
    this.draw();
  }

  private announce(text: string): void {
    // Alternate a trailing space so the same sentence twice is still announced.
    const same = this.live.textContent?.trim() === text;
    this.live.textContent = same ? `${text}${this.live.textContent?.endsWith(" ") ? "" : " "}` : text;
  }

  // --- rendering ------------------------------------------------------------------------

  private focusedKey(): { key: string; index: number } | null {
    const rootNode = this.root.getRootNode() as Document | ShadowRoot;
    const active = rootNode.activeElement as HTMLElement | null;
    if (!active || !this.root.contains(active)) return null;
    const key = keyOf(active);
    const cards = [...this.host.querySelectorAll(".rw-hand [data-card]")];
    return key ? { key, index: cards.indexOf(active) } : null;
  }

  draw(table?: TableState): void {
    const view = this.view;
    const s = this.settings();
    this.root.className = `rw-root${s.fourColor ? " rw-four" : ""}${s.size === "large" ? " rw-large" : ""}`;
    this.root.setAttribute("lang", s.lang);
    if (!view) return;
    const shown = table ?? tableOf(view);
    this.shown = table ?? null;
    const focus = this.focusedKey();
    for (const d of this.host.querySelectorAll<HTMLDetailsElement>("details[data-rw-open]")) {
      const key = d.dataset.rwOpen as string;
      if (d.open) this.ui.open.add(key);
      else this.ui.open.delete(key);
    }
    const board = renderBoard(view, shown, this.ui, s, this.id);
    const current = this.host.firstElementChild;
    // Patch the table in place instead of replacing it: only what changed is touched, and
    // the focused control stays where it is (re-focusing a new one forces a layout of the
    // whole notebook page: about 5 ms per redraw in JupyterLab, benchmarks/latency.py).
    if (current) morphdom(current, board, MORPH);
    else this.host.append(board);
    const active = this.root.ownerDocument.activeElement;
    if (focus && !(active && this.root.contains(active))) this.restoreFocus(focus);
  }

  private restoreFocus(focus: { key: string; index: number }): void {
    let el = [...this.host.querySelectorAll<HTMLElement>("[data-rw-act],[data-rw-set]")].find(
      (e) => keyOf(e) === focus.key,
    );
    if (!el && focus.index >= 0) {
      const cards = [...this.host.querySelectorAll<HTMLElement>(".rw-hand [data-card]")];
      el = cards[Math.min(focus.index, cards.length - 1)];
    }
    el?.focus({ preventScroll: true });
  }

  // --- learner input --------------------------------------------------------------------

  private send(intent: Record<string, unknown>): void {
    if (this.pending) return; // one intent at a time: the next waits for the new view
    this.pending = setTimeout(() => (this.pending = null), 4000);
    this.model.send(intent);
  }

  private sendAction(action: Record<string, unknown>): void {
    if (this.view) this.send({ type: "action", rev: this.view.rev, action });
  }

  private say(key: string, params: Record<string, string | number> = {}): void {
    this.alert.textContent = t(this.lang, key, params);
  }

  private sortHand(): void {
    const view = this.view;
    if (!view) return;
    const by: SortBy = this.ui.sortBy;
    const key = (id: number): number => {
      const card = view.hand.find((c) => c.id === id);
      const f = card ? face(card) : { rank: 0, suit: "S" };
      const suit = SUIT_ORDER.indexOf(f.suit);
      return by === "rank" ? f.rank * 10 + suit : suit * 100 + f.rank;
    };
    this.ui.order = [...this.ui.order].sort((a, b) => key(a) - key(b) || a - b);
  }

  /** Why a control is not available now, said to the learner. */
  private explain(act: string): void {
    const view = this.view;
    if (!view) return;
    const table = this.shown ?? tableOf(view);
    const can = moves(view, table);
    const sel = this.ui.selected.size;
    if (view.mode === "replay") return this.say("ui.error.replay");
    if (table.animating) return;
    if (view.phase === "over") return this.say("ui.turn.over");
    if (!can.mine) {
      return this.say("ui.turn.other", { name: view.players[table.current_player]?.name ?? "" });
    }
    if (act === "stock" || act === "pile") {
      if (view.phase !== "draw") return this.say("error.already_drawn");
      return this.say(act === "stock" ? "error.stock_empty" : "error.discard_empty");
    }
    if (view.phase === "draw") return this.say("error.draw_first");
    if (act === "meld" && sel < 3) return this.say("ui.error.choose_cards");
    if (act === "layoff" && !view.melds.length) return this.say("ui.no_melds");
    this.say("ui.error.choose_card");
  }

  activate(el: HTMLElement): void {
    const act = el.dataset.rwAct ?? "";
    const view = this.view;
    if (!view) return;
    if (el.getAttribute("aria-disabled") === "true") return this.explain(act);
    const ui = this.ui;
    const chosen = orderedHand(view, ui)
      .filter((c) => ui.selected.has(c.id))
      .map((c) => c.id);
    switch (act) {
      case "card": {
        const id = Number(el.dataset.card);
        if (ui.selected.has(id)) ui.selected.delete(id);
        else ui.selected.add(id);
        return this.draw(this.shown ?? undefined);
      }
      case "target": {
        const index = Number(el.dataset.meld);
        ui.target = ui.target === index ? null : index;
        return this.draw(this.shown ?? undefined);
      }
      case "stock":
      case "pile":
        return this.sendAction({ type: "draw", source: act === "stock" ? "stock" : "discard" });
      case "meld":
        return this.sendAction({ type: "meld", cards: chosen });
      case "discard":
        return this.sendAction({ type: "discard", card: chosen[0] });
      case "layoff": {
        const index = ui.target ?? (view.melds.length === 1 ? view.melds[0].index : null);
        if (index === null) {
          this.say("ui.error.choose_meld");
          this.host.querySelector<HTMLElement>(".rw-meld")?.focus();
          return;
        }
        return this.sendAction({ type: "lay_off", card: chosen[0], meld_index: index });
      }
      case "sort":
        this.sortHand();
        return this.draw(this.shown ?? undefined);
      case "hint":
        // The hint for this position is already shown: say it again rather than ask again.
        if (view.hint) return this.announce(view.hint.text);
        return this.send({ type: "hint", rev: view.rev });
      case "next":
        return this.send({ type: "next_deal", rev: view.rev });
      case "prev":
      case "fwd":
        if (view.replay) {
          this.send({ type: "replay", step: view.replay.step + (act === "fwd" ? 1 : -1) });
        }
        return;
    }
  }

  private onClick = (event: Event): void => {
    const el = (event.target as Element | null)?.closest<HTMLElement>("[data-rw-act]");
    if (el && this.root.contains(el)) this.activate(el);
  };

  private onChange = (event: Event): void => {
    const el = event.target as HTMLInputElement | HTMLSelectElement;
    const setting = el.dataset?.rwSet;
    if (!setting) return;
    const checked = (el as HTMLInputElement).checked;
    if (setting === "sortby") {
      this.ui.sortBy = el.value === "rank" ? "rank" : "suit";
      this.sortHand();
      this.draw(this.shown ?? undefined);
      return;
    }
    if (setting === "lang") this.model.set("lang", el.value);
    else if (setting === "four_color") this.model.set("four_color", checked);
    else if (setting === "size") this.model.set("size", checked ? "large" : "normal");
    else if (setting === "bot_speed") this.model.set("bot_speed", el.value);
    this.model.save_changes();
  };

  private onKey = (event: KeyboardEvent): void => {
    const target = event.composedPath()[0];
    if (!(target instanceof Element) || !this.root.contains(target)) return;
    if (this.handleKey(event, target as HTMLElement)) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  /** Act on a key pressed inside the table; true if the table used it. */
  handleKey(event: KeyboardEvent, target: HTMLElement): boolean {
    if (target.closest("select,input,textarea")) return false;
    if (event.key === "Escape") {
      if (this.timer) this.skipAnimation();
      else if (this.ui.selected.size || this.ui.target !== null) {
        this.ui.selected.clear();
        this.ui.target = null;
        this.draw(this.shown ?? undefined);
      } else return false;
      return true;
    }
    const card = target.closest<HTMLElement>(".rw-hand [data-card]");
    const arrows: Record<string, number> = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (card && (event.key in arrows || event.key === "Home" || event.key === "End")) {
      const id = Number(card.dataset.card);
      const order = this.ui.order;
      const at = order.indexOf(id);
      const step = arrows[event.key] ?? 0;
      const to = event.key === "Home" ? 0 : event.key === "End" ? order.length - 1 : at + step;
      if (to < 0 || to >= order.length) return true;
      if (event.shiftKey) {
        order.splice(at, 1);
        order.splice(to, 0, id);
        this.draw(this.shown ?? undefined);
        this.host.querySelector<HTMLElement>(`.rw-hand [data-card="${id}"]`)?.focus();
      } else {
        this.focusCard(order[to]);
      }
      return true;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const act = SHORTCUTS[event.key.toLowerCase()];
    const el = act ? this.host.querySelector<HTMLElement>(`[data-rw-act="${act}"]`) : null;
    if (!el) return false;
    this.activate(el);
    return true;
  }

  private focusCard(id: number): void {
    const cards = this.host.querySelectorAll<HTMLElement>(".rw-hand [data-card]");
    for (const c of cards) c.tabIndex = Number(c.dataset.card) === id ? 0 : -1;
    this.host.querySelector<HTMLElement>(`.rw-hand [data-card="${id}"]`)?.focus();
  }
}

/** Controls are matched by what they do (and which card or meld), other elements by id, so a
 * card that moves in the hand is moved, not redrawn; unchanged subtrees are left alone. */
const MORPH = {
  getNodeKey: (node: Node) =>
    node instanceof HTMLElement ? (keyOf(node) ?? (node.id || undefined)) : undefined,
  onBeforeElUpdated: (from: HTMLElement, to: HTMLElement) => !from.isEqualNode(to),
};

function keyOf(el: HTMLElement): string | null {
  const act = el.dataset.rwAct;
  if (act) return `${act}:${el.dataset.card ?? el.dataset.meld ?? ""}`;
  const setting = el.dataset.rwSet;
  return setting ? `set:${setting}` : null;
}

function render({ model, el }: { model: Model; el: HTMLElement }): () => void {
  const table = new TableController(model, el);
  return () => table.destroy();
}

export default { render };
