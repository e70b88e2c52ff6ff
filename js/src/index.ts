// anywidget entry point: the card table controller. Python owns the game; this file renders the
// seat's view, keeps the learner's local choices (selection, hand order) and sends intents.
//
// An explicit state machine: "idle" (the learner may act), "animating" (bots' moves are being
// shown one by one; the log and the announcements follow the animation, never ahead),
// "waiting" (an intent is on its way to Python). A click that cannot act now is answered
// with a word on the message line, never with silence.
import {
  actionStates,
  handCard,
  MELD_SCALES,
  moves,
  orderedHand,
  renderBoard,
  replayPosition,
  tableOf,
  tableOfStep,
  type Phase,
  type Settings,
  type SortBy,
  type Speed,
  type TableState,
  type UiState,
} from "./board";
import { h, patch } from "./dom";
import { attachDrag } from "./drag";
import { face, isLang, t, type Lang } from "./i18n";
import { aim, celebrate, flightsOf, type Flight } from "./motion";
import { PartCache } from "./parts";
import { relay } from "./remote";
import { adoptStyles } from "./styles";
import type { Drawn, Model, Step, View } from "./types";

/** Milliseconds per animated bot move. */
export const DELAYS: Record<Speed, number> = { instant: 0, fast: 250, normal: 700, slow: 1400 };
/** How long a card travels, as a share of the move's time. */
const FLIGHT_SHARE = 0.65;
const CELEBRATION_MS = 1600;
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
  readonly #host: HTMLElement;
  readonly #layer: HTMLElement;
  readonly #live: HTMLElement;
  private readonly parts: PartCache;
  readonly #id: string;
  readonly #win: Window;
  #view: View | null = null;
  #lastRev: number | null = null;
  #lastDeal: number | null = null;
  #lastMessage = 0;
  #lastHint = "";
  #lastHintKey = "";
  #alertText = "";
  /** The alert shows Python's message (which follows the language), not a local one. */
  #alertFromPython = false;
  #shown: TableState | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The frame in which the step being shown starts its flights. */
  #flight: number | null = null;
  /** Some card of the table waits, hidden, for its flight to land (`rw-landing`). */
  #landing = false;
  #pending: ReturnType<typeof setTimeout> | null = null;
  #autoplay: ReturnType<typeof setTimeout> | null = null;
  #endCelebration: (() => void) | null = null;
  /** The deal's going out has been celebrated: a review, a replay and Back to the table show
   * the same finished deal again, and are not celebrated again. */
  #celebrated = false;
  /** How many melds the felt showed when their size was last fitted to it (fitMelds). */
  #meldsFitted = -1;
  #steps: Step[] = [];
  /** The replay step asked for and not yet shown: rapid clicks add up, none is dropped. */
  #replayTarget: number | null = null;
  /** The card drawn and shown ahead of its view (`onDrawn`), until that view comes. */
  #drawnId: number | null = null;
  /** Events in the last view's log. */
  #logLength = 0;
  /** Lines of the drawer's log when it was last drawn (-1: not shown). */
  #logLines = -1;
  phase: Phase = "idle";
  readonly ui: UiState = {
    order: [],
    selected: new Set(),
    target: null,
    sortBy: "suit",
    autoSort: true,
    open: new Set(),
    fresh: new Set(),
    playing: false,
    passHeight: 0,
    meldScale: 1,
    lastTurn: {},
    notice: false,
  };

  readonly #model: Model;

  constructor(
    model: Model,
    el: HTMLElement,
  ) {
    this.#model = model;
    this.#id = `rw${++instances}`;
    this.#host = h("div", { class: "rw-host" });
    this.parts = new PartCache(this.#host, nodeKey);
    this.#layer = h("div", { class: "rw-layer", "aria-hidden": "true" });
    this.#live = h("div", { class: "rw-sr-only", "aria-live": "polite", "aria-atomic": "true" });
    this.root = h(
      "div",
      { class: "rw-root", "data-lm-suppress-shortcuts": "true" },
      this.#host,
      this.#layer,
      this.#live,
    );
    this.root.addEventListener("click", this.#onClick);
    // Keys are taken at the window, in the capture phase: Notebook 7 stops arrow keys at the
    // document before they reach any output (jupyter/notebook#7716). Only keys from inside
    // this table that it uses are taken; everything else flows on untouched.
    this.#win = el.ownerDocument.defaultView ?? window;
    this.#win.addEventListener("keydown", this.#onKey, true);
    this.root.addEventListener("change", this.#onChange);
    this.root.addEventListener("input", this.#onInput);
    // A <details> toggle does not bubble: listen in the capture phase. Opening the drawer
    // draws its panels (they are left out while it is closed).
    this.root.addEventListener("toggle", () => this.draw(this.#shown ?? undefined), true);
    attachDrag(this.root, {
      canDrag: (id) => this.#view !== null && this.#view.mode === "play" && this.#view.hand.some((c) => c.id === id),
      reorder: (id, before) => this.#reorder(id, before),
      drop: (ids, target, meld) => this.#dropped(ids, target, meld),
      selected: () => [...this.ui.selected],
    });
    el.append(this.root);
    model.on("change:view", this.#onView);
    model.on("change:rules", this.#onRules);
    model.on("msg:custom", this.#onDrawn);
    for (const name of SETTINGS) {
      model.on(`change:${name}`, this.#onSettings);
    }
    this.#onView();
  }

  destroy(): void {
    this.#model.off("change:view", this.#onView);
    this.#model.off("change:rules", this.#onRules);
    this.#model.off("msg:custom", this.#onDrawn);
    for (const name of SETTINGS) {
      this.#model.off(`change:${name}`, this.#onSettings);
    }
    this.#stopAnimation();
    this.#stopAutoplay();
    this.#endCelebration?.();
    if (this.#pending) clearTimeout(this.#pending);
    this.#win.removeEventListener("keydown", this.#onKey, true);
    this.root.remove();
  }

  settings(): Settings {
    const lang = this.#model.get("lang");
    const speed = this.#model.get("bot_speed");
    return {
      lang: isLang(lang) ? lang : "en",
      fourColor: Boolean(this.#model.get("four_color")),
      size: this.#model.get("size") === "large" ? "large" : "normal",
      speed: speed in DELAYS ? (speed as Speed) : "normal",
    };
  }

  private get lang(): Lang {
    return this.settings().lang;
  }

  #reducedMotion(): boolean {
    return Boolean(this.#win.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
  }

  // --- view updates ---------------------------------------------------------------------

  #onView = (): void => {
    const view = this.#model.get("view") as View | undefined;
    if (!view || !Array.isArray(view.players) || !view.players.length) return;
    // The widget syncs the rules table on its own (it changes only with the language).
    view.rules ??= this.#model.get("rules") ?? { name: "", title: "", rows: [] };
    const revChanged = view.rev !== this.#lastRev;
    const first = this.#lastRev === null;
    // A classroom seat's view extends the steps already shown with the next seat's move.
    const known = this.#view && extendsSteps(this.#view.steps, view.steps) ? this.#view.steps.length : 0;
    const deal = view.deal?.number ?? 1;
    const newDeal = deal !== this.#lastDeal;
    this.#view = view;
    this.#lastRev = view.rev;
    this.#lastDeal = deal;
    this.#updateHand(view, revChanged, first || newDeal);
    // A new deal, a new game or a replay's jump back: the turns kept belong to another table.
    if (newDeal || view.log.length < this.#logLength) this.ui.lastTurn = {};
    this.#logLength = view.log.length;
    if (this.#pending) clearTimeout(this.#pending);
    this.#pending = null;
    if (this.phase === "waiting") this.phase = "idle";
    const newMessage = !!view.message && view.message.id !== this.#lastMessage;
    if (view.message && newMessage) {
      this.#lastMessage = view.message.id;
      this.#alertText = view.message.text;
      this.#alertFromPython = true;
      this.ui.notice = view.message.kind === "info";
    } else if (revChanged) {
      this.#alertText = "";
      this.#alertFromPython = false;
    } else if (view.message && this.#alertFromPython) {
      this.#alertText = view.message.text; // the same message, in the table's new language
    }
    // A hint is new when it answers another position or names another move (not when the
    // language changed); the newest message wins, so a new hint clears an older error.
    const hintKey = view.hint ? `${view.rev}:${JSON.stringify(view.hint.action)}` : "";
    if (view.hint && view.hint.text !== this.#lastHint) this.#announce(view.hint.text);
    if (view.hint && hintKey !== this.#lastHintKey && !newMessage) this.#clearAlert();
    this.#lastHint = view.hint?.text ?? "";
    this.#lastHintKey = hintKey;
    if (view.replay && this.#replayTarget === view.replay.step) this.#replayTarget = null;
    if (revChanged && known && this.phase === "animating") {
      this.#steps.push(...view.steps.slice(known));
      return;
    }
    if (revChanged) {
      this.#stopAnimation();
      if (view.replay) {
        this.#announce(replayPosition(this.lang, view.replay.step, view.replay.total));
      }
      const steps = view.steps.slice(known);
      if (steps.length && (first || this.settings().speed === "instant")) this.#rememberTurns(steps);
      if (steps.length && !first) {
        if (this.settings().speed === "instant") {
          this.#announce(steps.flatMap((s) => this.#eventTexts(s)).join(" "));
        } else {
          this.#steps = steps;
          this.phase = "animating";
          this.#nextStep();
          return;
        }
      }
      this.#finished(revChanged && !first);
      return;
    }
    if (this.phase !== "animating") this.draw();
    else this.draw(this.#shown ?? undefined);
  };

  /** The card the learner just drew, sent by Python ahead of the view (which takes a few
   * milliseconds more to build and draw): it goes into its place in the hand at once, alone.
   * The view follows and draws the rest (the piles, the message line, the actions). */
  #onDrawn = (msg: Drawn): void => {
    const view = this.#view;
    const hand = this.#host.querySelector<HTMLElement>(".rw-hand");
    if (msg?.type !== "drawn" || !view || !hand || this.phase !== "waiting" || msg.rev !== view.rev + 1) return;
    const card = msg.card;
    const pile = msg.source === "discard";
    this.#view = {
      ...view,
      phase: "play",
      hand: [...view.hand, card],
      taken_from_discard: pile ? card : null,
      discard_pile: pile ? view.discard_pile.slice(1) : view.discard_pile,
      stock_size: pile ? view.stock_size : Math.max(0, view.stock_size - 1),
    };
    this.#updateHand(this.#view, false, false);
    this.#drawnId = card.id;
    const order = this.ui.order;
    const next = order[order.indexOf(card.id) + 1];
    const before = next === undefined ? null : hand.querySelector(`[data-card="${next}"]`);
    hand.insertBefore(handCard(this.lang, this.#view, this.ui, card), before);
    hand.style.setProperty("--rw-n", String(order.length));
    this.parts.forget("hand"); // changed in place: the view's draw builds it again
  };

  #onRules = (): void => {
    const rules = this.#model.get("rules");
    if (this.#view && rules?.rows) this.#view = { ...this.#view, rules };
    this.draw(this.#shown ?? undefined);
  };

  #onSettings = (): void => {
    this.#meldsFitted = -1; // another size or language: fit the melds again
    this.draw(this.#shown ?? undefined);
  };

  #updateHand(view: View, revChanged: boolean, fresh: boolean): void {
    const ids = view.hand.map((c) => c.id);
    const held = new Set(ids);
    if (fresh) {
      // A new deal (or the first view): the whole hand, sorted; no card of the last deal's
      // hand keeps its old place just because the same card id came again. Melds full size.
      this.ui.order = ids;
      this.ui.meldScale = MELD_SCALES[0];
      this.#meldsFitted = -1;
      this.ui.fresh = new Set();
      this.#sortHand();
    } else {
      const kept = this.ui.order.filter((id) => held.has(id));
      const added = ids.filter((id) => !kept.includes(id));
      this.ui.order = kept;
      for (const id of added) this.#insertCard(id);
      this.ui.fresh = new Set(added);
      // The card sent ahead of the view is already in the hand: it is still the new one.
      if (this.#drawnId !== null && held.has(this.#drawnId)) this.ui.fresh.add(this.#drawnId);
    }
    this.#drawnId = null;
    if (revChanged) {
      this.ui.selected.clear();
      this.ui.target = null;
    } else {
      for (const id of [...this.ui.selected]) if (!held.has(id)) this.ui.selected.delete(id);
    }
  }

  /** A new card goes where the current sort puts it (auto-sort), else at the right end. */
  #insertCard(id: number): void {
    const order = this.ui.order;
    if (!this.ui.autoSort) {
      order.push(id);
      return;
    }
    const key = this.#sortKey();
    const at = order.findIndex((other) => key(other) > key(id));
    order.splice(at < 0 ? order.length : at, 0, id);
  }

  /** A step's moves in words (Python's, in the table's language). */
  #eventTexts(step: Step): string[] {
    return step.events.map((e) => e.text ?? "");
  }

  #clearAlert(): void {
    this.#alertText = "";
    this.#alertFromPython = false;
  }

  #unseenAfter(): number {
    return this.#steps.reduce((n, s) => n + s.events.length, 0);
  }

  #nextStep = (): void => {
    const view = this.#view;
    this.#timer = null;
    const step = this.#steps.shift();
    if (!view || !step) {
      this.#finished(true);
      return;
    }
    const table = tableOfStep(view, step, this.#unseenAfter());
    this.#alertText = "";
    this.#alertFromPython = false;
    this.#rememberTurns([step]);
    this.draw(table);
    this.#announce(this.#eventTexts(step).join(" "));
    const delay = DELAYS[this.settings().speed] || DELAYS.fast;
    if (!this.#reducedMotion()) {
      // Measured here, in the task that drew the step (one layout of the page); the cards
      // take off in the frame that first shows the step, a task of its own.
      const flights = flightsOf(this.#host, step);
      const launch = aim(this.#layer, flights, Math.round(delay * FLIGHT_SHARE));
      this.#flight = this.#win.requestAnimationFrame(() => this.#takeOff(flights, launch));
    }
    this.#timer = setTimeout(this.#nextStep, delay);
  };

  /** The step's cards start travelling; each one's place in the table stays empty until it lands. */
  #takeOff(flights: Flight[], launch: () => Promise<void>): void {
    this.#flight = null;
    this.#landing = true;
    for (const f of flights) f.to?.classList.add("rw-landing");
    launch().then(() => {
      for (const f of flights) f.to?.classList.remove("rw-landing");
    });
  }

  /** The animation is over (or there was none): show the final table; celebrate, focus. */
  #finished(moved: boolean): void {
    this.phase = this.#pending ? "waiting" : "idle";
    this.#shown = null;
    this.draw();
    const view = this.#view;
    if (view?.mode === "play") this.#celebrated = view.phase === "over" && (this.#celebrated || !moved);
    if (!view || !moved) return this.#scheduleAutoplay();
    const end = view.log[view.log.length - 1];
    const won = view.phase === "over" && end?.type === "end" && end.winner === view.seat;
    if (view.mode === "play" && won && !this.#celebrated) {
      this.#celebrated = true;
      this.#endCelebration?.();
      const key = end?.rummy ? "ui.celebrate.rummy" : "ui.celebrate.out";
      const ms = this.#reducedMotion() ? CELEBRATION_MS / 2 : CELEBRATION_MS;
      this.#endCelebration = celebrate(this.#layer, t(this.lang, key), Boolean(end?.rummy), ms);
    }
    this.#scheduleAutoplay();
  }

  #stopAnimation(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#flight !== null) this.#win.cancelAnimationFrame(this.#flight);
    this.#flight = null;
    this.#steps = [];
    // getAnimations() brings the page's style up to date first (a style pass per learner
    // move): ask only when something is in the layer to cancel.
    if (this.#layer.firstElementChild) {
      for (const a of this.#layer.getAnimations?.({ subtree: true }) ?? []) a.cancel();
      this.#layer.querySelectorAll(".rw-flying").forEach((e) => e.remove());
    }
    if (this.#landing) this.#host.querySelectorAll(".rw-landing").forEach((e) => e.classList.remove("rw-landing"));
    this.#landing = false;
  }

  /** Show the rest of the bots' moves at once. */
  skipAnimation(): void {
    if (this.phase !== "animating") return;
    const rest = this.#steps.flatMap((s) => this.#eventTexts(s));
    this.#rememberTurns(this.#steps);
    this.#stopAnimation();
    if (rest.length) this.#announce(rest.join(" "));
    this.#finished(true);
  }

  /** Keep each seat's last turn for its caption under its name (board.ts, seatShown): a
   * step that draws starts the seat's turn afresh, the others add to it. */
  #rememberTurns(steps: Step[]): void {
    const turns = this.ui.lastTurn;
    for (const step of steps) {
      const starts = step.events.some((e) => e.type === "draw");
      turns[step.actor] = starts ? [...step.events] : [...(turns[step.actor] ?? []), ...step.events];
    }
  }

  #announce(text: string): void {
    // Alternate a trailing space so the same sentence twice is still announced.
    const same = this.#live.textContent?.trim() === text;
    this.#live.textContent = same ? `${text}${this.#live.textContent?.endsWith(" ") ? "" : " "}` : text;
  }

  // --- rendering ------------------------------------------------------------------------

  #focusedKey(): { key: string; index: number } | null {
    const rootNode = this.root.getRootNode() as Document | ShadowRoot;
    const active = rootNode.activeElement as HTMLElement | null;
    if (!active || !this.root.contains(active)) return null;
    const key = keyOf(active);
    if (!key) return null;
    // Only a card needs its place: the card at that place takes the focus if it is gone.
    const cards = active.hasAttribute("data-card") ? [...this.#host.querySelectorAll(".rw-hand [data-card]")] : [];
    return { key, index: cards.indexOf(active) };
  }

  draw(table?: TableState): void {
    const view = this.#view;
    const s = this.settings();
    // Set only what changed: writing an attribute of the page's element, even with its own
    // value, costs a style check.
    const className = `rw-root${s.fourColor ? " rw-four" : ""}${s.size === "large" ? " rw-large" : ""}`;
    if (this.root.className !== className) this.root.className = className;
    if (this.root.getAttribute("lang") !== s.lang) this.root.setAttribute("lang", s.lang);
    if (this.root.dataset.rwState !== this.phase) this.root.dataset.rwState = this.phase;
    if (!view) return;
    const shown = table ?? tableOf(view);
    this.#shown = table ?? null;
    const focus = this.#focusedKey();
    // A panel is remembered open; one whose key starts with "!" starts open (the scoreboard)
    // and is remembered shut.
    for (const d of this.#host.querySelectorAll<HTMLDetailsElement>("details[data-rw-open]")) {
      const key = d.dataset.rwOpen as string;
      if (d.open !== key.startsWith("!")) this.ui.open.add(key);
      else this.ui.open.delete(key);
    }
    const alert = this.#model.get("progress") || this.#alertText;
    const before = this.#host.firstElementChild as HTMLElement | null;
    if (view.pass && before && !before.classList.contains("rw-pass")) this.ui.passHeight = before.offsetHeight;
    // Patch the table in place instead of replacing it: only what changed is touched, and
    // the focused control stays where it is (re-focusing a new one forces a layout of the
    // whole notebook page, benchmarks/latency.py). Parts whose inputs did not change are
    // neither built nor compared (parts.ts); if the table's shape moved around one, the
    // table is drawn once more with every part built.
    for (let tries = 0; tries < 2; tries++) {
      const board = renderBoard(view, shown, this.ui, s, this.#id, this.phase, alert, this.parts);
      const current = this.#host.firstElementChild;
      if (current) patch(current, board, nodeKey);
      else this.#host.append(board);
      if (this.parts.settle()) break;
    }
    const active = (this.root.getRootNode() as Document | ShadowRoot).activeElement;
    if (focus && !(active && this.root.contains(active))) this.#restoreFocus(focus);
    this.#scrollLog();
    if (shown.melds.length !== this.#meldsFitted) this.#fitMelds(shown.melds.length);
  }

  /** More melds than the felt holds at this size: a smaller size, not a taller table (the hand
   * and the buttons would move down mid-deal). Measured only when the number of melds changes. */
  #fitMelds(count: number, retry = true): void {
    this.#meldsFitted = count;
    const section = this.#host.querySelector<HTMLElement>(".rw-melds");
    if (!section || !count) return;
    // Not laid out yet (the first view is drawn before the notebook shows the output): look
    // again in the next frame, and at the next draw if it is still not shown.
    if (!section.offsetHeight) {
      this.#meldsFitted = -1;
      const again = () => this.#meldsFitted < 0 && this.#fitMelds((this.#shown ?? this.#view)?.melds.length ?? 0, false);
      if (retry) this.#win.requestAnimationFrame(again);
      return;
    }
    const reserved = parseFloat(this.#win.getComputedStyle(section).minHeight) || 0;
    let at = MELD_SCALES.indexOf(this.ui.meldScale);
    while (section.offsetHeight > reserved + 1 && at < MELD_SCALES.length - 1) {
      this.ui.meldScale = MELD_SCALES[++at];
      this.draw(this.#shown ?? undefined);
    }
  }

  /** The drawer's log shows its newest line when it opens and when a line comes; in between
   * the learner may scroll back through the whole deal. */
  #scrollLog(): void {
    const log = this.#host.querySelector<HTMLElement>(".rw-log");
    const lines = log ? log.childElementCount : -1;
    if (log && lines !== this.#logLines) log.scrollTop = log.scrollHeight;
    this.#logLines = lines;
  }

  #restoreFocus(focus: { key: string; index: number }): void {
    const all = [...this.#host.querySelectorAll<HTMLElement>("[data-rw-act],[data-rw-set]")];
    let el = all.find((e) => keyOf(e) === focus.key);
    if (!el && focus.index >= 0) {
      const cards = [...this.#host.querySelectorAll<HTMLElement>(".rw-hand [data-card]")];
      el = cards[Math.min(focus.index, cards.length - 1)];
    }
    // The hand is empty (the learner went out): Next deal, so N works at once.
    el ??= this.#host.querySelector<HTMLElement>('[data-rw-act="next"],[data-rw-act="again"]') ?? undefined;
    el ??= this.#host.querySelector<HTMLElement>(".rw-actions button") ?? undefined;
    el?.focus({ preventScroll: true });
  }

  /** Selecting a card changes a handful of attributes: set them, without a redraw. */
  #refreshSelection(): void {
    const view = this.#view;
    if (!view) return;
    this.parts.forget(); // the cards' and the melds' aria-pressed change in place below
    const table = this.#shown ?? tableOf(view);
    for (const b of this.#host.querySelectorAll<HTMLElement>(".rw-hand [data-card]")) {
      const on = this.ui.selected.has(Number(b.dataset.card));
      b.setAttribute("aria-pressed", on ? "true" : "false");
    }
    for (const b of this.#host.querySelectorAll<HTMLElement>(".rw-meld[data-meld]")) {
      b.setAttribute("aria-pressed", this.ui.target === Number(b.dataset.meld) ? "true" : "false");
    }
    const open = actionStates(view, table, this.ui.selected.size);
    for (const [act, on] of Object.entries(open)) {
      const b = this.#host.querySelector(`[data-rw-act="${act}"]`);
      if (!b) continue;
      if (on) b.removeAttribute("aria-disabled");
      else b.setAttribute("aria-disabled", "true");
    }
  }

  // --- learner input --------------------------------------------------------------------

  #send(intent: Record<string, unknown>): void {
    if (this.#pending) return this.#say("ui.wait_python");
    this.#pending = setTimeout(() => {
      this.#pending = null;
      if (this.phase === "waiting") this.phase = "idle";
    }, 4000);
    if (this.phase === "idle") this.phase = "waiting";
    this.root.dataset.rwState = this.phase;
    this.#model.send(intent);
  }

  #sendAction(action: Record<string, unknown>): void {
    if (this.#view) this.#send({ type: "action", rev: this.#view.rev, action });
  }

  /** A sentence on the message line: an error, or (`notice`) word of what just happened. */
  #say(key: string, params: Record<string, string | number> = {}, notice = false): void {
    this.#alertText = t(this.lang, key, params);
    this.#alertFromPython = false;
    this.ui.notice = notice;
    this.draw(this.#shown ?? undefined);
  }

  #sortKey(): (id: number) => number {
    const view = this.#view;
    const by: SortBy = this.ui.sortBy;
    const cards = new Map((view?.hand ?? []).map((c) => [c.id, c]));
    return (id: number): number => {
      const card = cards.get(id);
      const f = card ? face(card) : { rank: 0, suit: "S" };
      const suit = SUIT_ORDER.indexOf(f.suit);
      return (by === "rank" ? f.rank * 10 + suit : suit * 100 + f.rank) * 1000 + id;
    };
  }

  #sortHand(): void {
    const key = this.#sortKey();
    this.ui.order = [...this.ui.order].sort((a, b) => key(a) - key(b));
  }

  /** Why a control is not available now, said to the learner. */
  #explain(act: string): void {
    const view = this.#view;
    if (!view) return;
    const table = this.#shown ?? tableOf(view);
    const can = moves(view, table);
    const sel = this.ui.selected.size;
    if (view.mode === "replay") return this.#say("ui.error.replay");
    if (this.phase === "animating") {
      const actor = table.step?.actor ?? table.current_player;
      return this.#say("ui.wait_animation", { name: view.players[actor]?.name ?? "" });
    }
    if (view.phase === "over") return this.#say("ui.turn.over");
    if (!can.mine) {
      return this.#say("ui.turn.other", { name: view.players[table.current_player]?.name ?? "" });
    }
    if (act === "stock" || act === "pile") {
      if (view.phase !== "draw") return this.#say("error.already_drawn");
      return this.#say(act === "stock" ? "error.stock_empty" : "error.discard_empty");
    }
    if (view.phase === "draw") return this.#say("error.draw_first");
    // One or two cards: Python names the rule (a meld needs at least three cards).
    if (act === "meld" && sel > 0) return this.#sendAction({ type: "meld", cards: this.#chosen() });
    if (act === "meld") return this.#say("ui.error.choose_cards");
    if (act === "layoff" && !view.melds.length) return this.#say("ui.no_melds");
    this.#say("ui.error.choose_card");
  }

  #chosen(): number[] {
    const view = this.#view;
    if (!view) return [];
    return orderedHand(view, this.ui)
      .filter((c) => this.ui.selected.has(c.id))
      .map((c) => c.id);
  }

  activate(el: HTMLElement): void {
    const act = el.dataset.rwAct ?? "";
    const view = this.#view;
    if (!view) return;
    if (act === "skip") return this.skipAnimation();
    if (view.replay && ["first", "prev", "fwd", "last", "autoplay"].includes(act)) return this.#replayControl(act);
    // Python checks a take-back and, if it refuses, names the rule on the message line.
    if (act === "takeback") return this.#send({ type: "take_back", rev: view.rev });
    if (act === "review") return this.#send({ type: "review", rev: view.rev });
    if (act === "item") return this.#send({ type: "review_open", move: Number(el.dataset.move) });
    if (act === "back") return this.#send({ type: "review_close" });
    if (act === "ready") return this.#send({ type: "pass_ready" });
    if (el.getAttribute("aria-disabled") === "true") return this.#explain(act);
    const ui = this.ui;
    const chosen = this.#chosen();
    switch (act) {
      case "card": {
        const id = Number(el.dataset.card);
        if (ui.selected.has(id)) ui.selected.delete(id);
        else ui.selected.add(id);
        return this.#refreshSelection();
      }
      case "target": {
        const index = Number(el.dataset.meld);
        ui.target = ui.target === index ? null : index;
        return this.#refreshSelection();
      }
      case "stock":
      case "pile":
        return this.#sendAction({ type: "draw", source: act === "stock" ? "stock" : "discard" });
      case "meld":
        return this.#sendAction({ type: "meld", cards: chosen });
      case "discard":
        return this.#sendAction({ type: "discard", card: chosen[0] });
      case "layoff": {
        const index = ui.target ?? (view.melds.length === 1 ? view.melds[0].index : null);
        if (index === null) {
          this.#say("ui.error.choose_meld");
          this.#host.querySelector<HTMLElement>(".rw-meld")?.focus();
          return;
        }
        return this.#sendAction({ type: "lay_off", card: chosen[0], meld_index: index });
      }
      case "sort": {
        // A hand already in order is sorted the other way (suit <-> rank): the press always
        // does something, and the line says which order the hand is in now.
        const before = this.ui.order.join();
        this.#sortHand();
        if (this.ui.order.join() === before) {
          this.ui.sortBy = this.ui.sortBy === "suit" ? "rank" : "suit";
          this.#sortHand();
        }
        return this.#say(this.ui.sortBy === "rank" ? "ui.sorted.rank" : "ui.sorted.suit", {}, true);
      }
      case "hint":
        // The hint for this position is already shown: say it again rather than ask again.
        if (view.hint) {
          this.#clearAlert(); // the hint is the newest message again
          this.draw(this.#shown ?? undefined);
          return this.#announce(view.hint.text);
        }
        return this.#send({ type: "hint", rev: view.rev });
      case "next":
        return this.#send({ type: "next_deal", rev: view.rev });
      case "again":
        return this.#send({ type: "play_again", rev: view.rev });
    }
  }

  // --- drag and drop --------------------------------------------------------------------

  #reorder(id: number, before: number | null): void {
    const order = this.ui.order.filter((x) => x !== id);
    const at = before === null ? order.length : order.indexOf(before);
    order.splice(at < 0 ? order.length : at, 0, id);
    this.ui.order = order;
    this.draw(this.#shown ?? undefined);
  }

  #dropped(ids: number[], target: string, meld: number | null): void {
    const view = this.#view;
    if (!view) return;
    const table = this.#shown ?? tableOf(view);
    if (!moves(view, table).play) {
      const act = target === "pile" ? "discard" : target === "meld" ? "layoff" : "meld";
      return this.#explain(act);
    }
    if (target === "pile" && ids.length === 1) return this.#sendAction({ type: "discard", card: ids[0] });
    if (target === "meld" && meld !== null && ids.length === 1) {
      return this.#sendAction({ type: "lay_off", card: ids[0], meld_index: meld });
    }
    if (target === "felt" || (target === "meld" && ids.length > 1)) {
      return this.#sendAction({ type: "meld", cards: ids });
    }
    this.#say("ui.error.choose_card");
  }

  // --- replay ---------------------------------------------------------------------------

  #replayControl(act: string): void {
    const replay = this.#view?.replay;
    if (!replay) return;
    if (act === "autoplay") {
      this.ui.playing = !this.ui.playing;
      if (this.ui.playing && replay.step >= replay.total) this.ui.playing = false;
      this.draw(this.#shown ?? undefined);
      return this.ui.playing ? this.#scheduleAutoplay() : this.#stopAutoplay();
    }
    const base = this.#replayTarget ?? replay.step;
    const to = { first: 0, prev: base - 1, fwd: base + 1, last: replay.total }[act] ?? base;
    this.#replayGo(to);
  }

  #replayGo(step: number): void {
    const replay = this.#view?.replay;
    if (!replay) return;
    this.#replayTarget = Math.max(0, Math.min(replay.total, step));
    if (this.#replayTarget === replay.step) {
      this.#replayTarget = null;
      return;
    }
    if (!this.#pending) this.#send({ type: "replay", step: this.#replayTarget });
  }

  #scheduleAutoplay(): void {
    const view = this.#view;
    // A replay step asked for while the last one was on its way goes now.
    if (view?.replay && this.#replayTarget !== null && !this.#pending) {
      this.#send({ type: "replay", step: this.#replayTarget });
      return;
    }
    if (!view?.replay || !this.ui.playing || this.#autoplay) return;
    if (view.replay.step >= view.replay.total) {
      this.ui.playing = false;
      this.draw();
      return;
    }
    this.#autoplay = setTimeout(() => {
      this.#autoplay = null;
      if (this.ui.playing && this.phase === "idle") this.#replayControl("fwd");
    }, DELAYS[this.settings().speed] || DELAYS.fast);
  }

  #stopAutoplay(): void {
    if (this.#autoplay) clearTimeout(this.#autoplay);
    this.#autoplay = null;
  }

  // --- events ---------------------------------------------------------------------------

  #onClick = (event: Event): void => {
    const el = (event.target as Element | null)?.closest<HTMLElement>("[data-rw-act]");
    // The banner ends on a click on it, or on any control (Review, Play again) that it would cover.
    if (this.#endCelebration && (el || (event.target as Element | null)?.closest?.(".rw-celebrate"))) {
      this.#endCelebration();
      this.#endCelebration = null;
    }
    if (el && this.root.contains(el)) this.activate(el);
  };

  #onInput = (event: Event): void => {
    const el = event.target as HTMLInputElement;
    if (el.dataset?.rwSet === "replay_step") this.#replayGo(Number(el.value));
  };

  #onChange = (event: Event): void => {
    const el = event.target as HTMLInputElement | HTMLSelectElement;
    const setting = el.dataset?.rwSet;
    if (!setting || setting === "replay_step") return;
    const checked = (el as HTMLInputElement).checked;
    if (setting === "sortby") {
      this.ui.sortBy = el.value === "rank" ? "rank" : "suit";
      this.#sortHand();
      this.draw(this.#shown ?? undefined);
      return;
    }
    if (setting === "auto_sort") {
      this.ui.autoSort = checked;
      return;
    }
    if (setting === "lang") this.#model.set("lang", el.value);
    else if (setting === "four_color") this.#model.set("four_color", checked);
    else if (setting === "size") this.#model.set("size", checked ? "large" : "normal");
    else if (setting === "bot_speed") this.#model.set("bot_speed", el.value);
    this.#model.save_changes();
  };

  #onKey = (event: KeyboardEvent): void => {
    const target = event.composedPath()[0];
    if (!(target instanceof Element) || !this.root.contains(target)) return;
    if (this.handleKey(event, target as HTMLElement)) {
      event.preventDefault();
      event.stopPropagation();
    } else if (keptInside(event)) {
      // Not the table's key, but the notebook's: JupyterLab's command-mode shortcuts fire
      // inside an output (an arrow moves to another cell, D D deletes one, X cuts one), and
      // data-lm-suppress-shortcuts does not stop a shortcut whose selector matches the focused
      // control itself. The key still does what it does here (a select, Space on a button).
      event.stopPropagation();
    }
  };

  /** Act on a key pressed inside the table; true if the table used it. */
  handleKey(event: KeyboardEvent, target: HTMLElement): boolean {
    if (target.closest("select,input,textarea")) return false;
    if (event.key === "Escape") {
      if (this.#endCelebration) {
        this.#endCelebration();
        this.#endCelebration = null;
      } else if (this.phase === "animating") this.skipAnimation();
      else if (this.ui.selected.size || this.ui.target !== null) {
        this.ui.selected.clear();
        this.ui.target = null;
        this.#refreshSelection();
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
        this.draw(this.#shown ?? undefined);
        this.#host.querySelector<HTMLElement>(`.rw-hand [data-card="${id}"]`)?.focus();
      } else {
        this.#focusCard(order[to]);
      }
      return true;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const act = SHORTCUTS[event.key.toLowerCase()];
    const el = act ? this.#host.querySelector<HTMLElement>(`[data-rw-act="${act}"]`) : null;
    if (!el) return false;
    this.activate(el);
    return true;
  }

  #focusCard(id: number): void {
    this.parts.forget(); // the cards' tabindex changes in place
    const cards = this.#host.querySelectorAll<HTMLElement>(".rw-hand [data-card]");
    for (const c of cards) c.tabIndex = Number(c.dataset.card) === id ? 0 : -1;
    this.#host.querySelector<HTMLElement>(`.rw-hand [data-card="${id}"]`)?.focus();
  }
}

/** A key pressed inside the table that the page around it must not see: every key but Tab,
 * Escape, Shift+Enter (run the cell) and those with Ctrl, Alt or Meta (the notebook's and the
 * browser's own). */
export function keptInside(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (event.key === "Tab" || event.key === "Escape") return false;
  return !(event.key === "Enter" && event.shiftKey);
}

/** The model's traits that only redraw; "progress" is a running review's line (Python's). */
const SETTINGS = ["lang", "four_color", "size", "bot_speed", "progress"];

/** Controls are matched by what they do (and which card or meld), other elements by id, so a
 * card that moves in the hand is moved, not redrawn; unchanged subtrees are left alone. */
function nodeKey(el: Element): string | undefined {
  if (!(el instanceof HTMLElement)) return undefined;
  const part = el.getAttribute("data-rw-part");
  return part ? `part:${part}` : (keyOf(el) ?? (el.id || undefined));
}

function keyOf(el: HTMLElement): string | null {
  // getAttribute rather than dataset: this runs for every element a redraw compares.
  const act = el.getAttribute("data-rw-act");
  if (act) {
    const on = el.getAttribute("data-card") ?? el.getAttribute("data-meld") ?? el.getAttribute("data-move");
    return `${act}:${on ?? ""}`;
  }
  const setting = el.getAttribute("data-rw-set");
  return setting ? `set:${setting}` : null;
}

/** Whether `next` is `shown` with more steps after it (the same last step, by value). */
function extendsSteps(shown: Step[], next: Step[]): boolean {
  const n = shown.length;
  return n > 0 && next.length > n && JSON.stringify(shown[n - 1]) === JSON.stringify(next[n - 1]);
}

function render({ model, el }: { model: Model; el: HTMLElement }): () => void {
  adoptStyles(el);
  const table = new TableController(model, el);
  return () => table.destroy();
}

/** Once per model, not per view: a classroom seat's one socket (remote.ts). */
function initialize({ model }: { model: Model }): () => void {
  return relay(model);
}

export default { initialize, render };
