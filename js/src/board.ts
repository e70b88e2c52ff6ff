// Renders the felt table from the seat's view: a pure function of the view, the local UI state
// and what the table shows now (the final view, or a bot move being animated).
//
// Layout, top to bottom: a header (rules, deal number, the drawer with settings, rules, the
// whole pile and the log), the opponents across the top, the stock and the discard pile beside
// the melds on the felt, the learner's hand fanned at the bottom, ONE message line, the
// actions. Every band has a reserved height, so nothing jumps between turns.
import { cardBack, cardButton, cardFace, cardImage, emptyPlace } from "./cards";
import { h } from "./dom";
import { NO_PARTS, type Parts } from "./parts";
import { cardList, cardName, shortList, shortName, t, tn, type Lang } from "./i18n";
import type { Card, LogEvent, MeldView, Player, Scoreboard, Step, View } from "./types";

export type SortBy = "rank" | "suit";
export type Speed = "instant" | "fast" | "normal" | "slow";
/** The front end's state: idle (the learner may act), animating bots, waiting for Python. */
export type Phase = "idle" | "animating" | "waiting";

export interface UiState {
  /** The learner's order of the hand (card ids). */
  order: number[];
  selected: Set<number>;
  /** The meld chosen as the target of a lay-off. */
  target: number | null;
  sortBy: SortBy;
  autoSort: boolean;
  /** Which <details> panels are open, by key. */
  open: Set<string>;
  /** Cards that just arrived in the hand. */
  fresh: Set<number>;
  /** Replay autoplay is running. */
  playing: boolean;
  /** The table's height when the hot seat's pass screen took its place (0: not known). */
  passHeight: number;
  /** The size of the melds' cards, 1 down to MELD_SCALES' last: they shrink, rather than the
   * table grow, when the felt fills up during a deal. */
  meldScale: number;
  /** Each other seat's last turn (its events), shown in words under its name until its next
   * turn: the bots' round stays readable after it is played. */
  lastTurn: Record<number, LogEvent[]>;
  /** The message line's text is a notice (what a take-back undid, the hand's order), not an error. */
  notice: boolean;
}

/** The melds' sizes, largest first (index.ts steps down while they overflow the felt). */
export const MELD_SCALES = [1, 0.85, 0.72, 0.6, 0.5];

export interface Settings {
  lang: Lang;
  fourColor: boolean;
  size: "normal" | "large";
  speed: Speed;
}

/** What the table shows now: the final view, or a bot move being animated. */
export interface TableState {
  players: Player[];
  current_player: number;
  stock_size: number;
  discard_top: Card | null;
  discard_size: number;
  melds: MeldView[];
  animating: boolean;
  /** The move being animated (its caption), when animating. */
  step?: Step;
  /** Log events not yet shown (they belong to moves still to be animated). */
  unseen?: number;
}

export function tableOf(view: View): TableState {
  return {
    players: view.players,
    current_player: view.current_player,
    stock_size: view.stock_size,
    discard_top: view.discard_pile[0] ?? null,
    discard_size: view.discard_pile.length,
    melds: view.melds,
    animating: false,
  };
}

/** The table after an animated step: public sizes from the step, names from the view. */
export function tableOfStep(view: View, step: Step, unseen: number): TableState {
  const snap = step.table;
  return {
    players: view.players.map((p, i) => {
      const hand = snap.hands?.[i];
      return { ...p, ...snap.players[i], ...(hand && i !== view.seat ? { hand } : {}) };
    }),
    current_player: snap.current_player,
    stock_size: snap.stock_size,
    discard_top: snap.discard_top,
    discard_size: snap.discard_size,
    melds: snap.melds,
    animating: true,
    step,
    unseen,
  };
}

export const SPEEDS: Speed[] = ["instant", "fast", "normal", "slow"];

/** Which of the learner's moves are open right now. */
export function moves(view: View, table: TableState) {
  const mine =
    view.mode === "play" &&
    !table.animating &&
    view.phase !== "over" &&
    table.current_player === view.seat;
  return {
    mine,
    draw: mine && view.phase === "draw",
    play: mine && view.phase === "play",
  };
}

/** The hand in the learner's order. */
export function orderedHand(view: View, ui: UiState): Card[] {
  const byId = new Map(view.hand.map((c) => [c.id, c]));
  return ui.order.filter((id) => byId.has(id)).map((id) => byId.get(id) as Card);
}

/** The caption of an animated move, by the acting player, with short card names (Q♠). */
export function captionText(lang: Lang, names: string[], step: Step): string {
  return eventsCaption(lang, names, step.actor, step.events);
}

/** Events of one player's turn in words: "Aino takes 7♥ from the discard pile · Aino discards 2♣". */
export function eventsCaption(lang: Lang, names: string[], actor: number, events: LogEvent[]): string {
  const name = names[actor] ?? "";
  const parts: string[] = [];
  for (const e of events) {
    if (e.type === "draw") {
      // A stock draw names its card only with open hands (the teacher's demo; table/core.py).
      const key = e.source === "discard" ? "ui.caption.draw_discard" : "ui.caption.draw_stock_card";
      parts.push(
        e.card ? t(lang, key, { name, card: shortName(e.card) }) : t(lang, "ui.caption.draw_stock", { name }),
      );
    } else if (e.type === "meld") {
      parts.push(t(lang, "ui.caption.meld", { name, cards: shortList(e.cards ?? []) }));
    } else if (e.type === "lay_off" && e.card) {
      parts.push(
        t(lang, "ui.caption.lay_off", { name, card: shortName(e.card), index: e.meld_index ?? 0 }),
      );
    } else if (e.type === "discard" && e.card) {
      parts.push(t(lang, "ui.caption.discard", { name, card: shortName(e.card) }));
    } else if (e.type === "end" && e.winner !== null && e.winner !== undefined && !e.void) {
      parts.push(t(lang, e.rummy ? "ui.caption.end_rummy" : "ui.caption.end_out", { name: names[e.winner] ?? "" }));
    }
  }
  return parts.join(" · ");
}

export function statusText(lang: Lang, view: View, table: TableState): string {
  const names = view.players.map((p) => p.name);
  if (table.animating && table.step) return captionText(lang, names, table.step);
  if (view.phase === "over") return t(lang, "ui.turn.over");
  const current = table.players[table.current_player];
  if (table.current_player !== view.seat || view.mode === "replay") {
    return t(lang, "ui.turn.other", { name: current?.name ?? "" });
  }
  return t(lang, view.phase === "draw" ? "ui.turn.draw" : "ui.turn.play");
}

function button(label: string, act: string, enabled: boolean, extra: Record<string, string | null> = {}) {
  return h(
    "button",
    {
      type: "button",
      class: `rw-btn rw-act-${act}`,
      "data-rw-act": act,
      "aria-disabled": enabled ? null : "true",
      ...extra,
    },
    label,
  );
}

function select(label: string, setting: string, value: string, options: [string, string][]): HTMLElement {
  return h(
    "label",
    { class: "rw-field" },
    label + " ",
    h(
      "select",
      { "data-rw-set": setting },
      ...options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)),
    ),
  );
}

function checkbox(label: string, setting: string, checked: boolean): HTMLElement {
  return h(
    "label",
    { class: "rw-field" },
    h("input", { type: "checkbox", "data-rw-set": setting, checked }),
    " " + label,
  );
}

function settingsBar(s: Settings, ui: UiState): HTMLElement {
  const lang = s.lang;
  return h(
    "div",
    { class: "rw-settings" },
    select(t(lang, "ui.language"), "lang", lang, [
      ["en", t(lang, "ui.lang_name.en")],
      ["fi", t(lang, "ui.lang_name.fi")],
    ]),
    select(
      t(lang, "ui.speed"),
      "bot_speed",
      s.speed,
      SPEEDS.map((v) => [v, t(lang, `ui.speed.${v}`)]),
    ),
    select(t(lang, "ui.sort_by"), "sortby", ui.sortBy, [
      ["rank", t(lang, "ui.sort.rank")],
      ["suit", t(lang, "ui.sort.suit")],
    ]),
    checkbox(t(lang, "ui.auto_sort"), "auto_sort", ui.autoSort),
    checkbox(t(lang, "ui.four_color"), "four_color", s.fourColor),
    checkbox(t(lang, "ui.large"), "size", s.size === "large"),
  );
}

/** What an opponent's seat shows: the inputs of `opponent`, and so the key of its part. */
function seatShown(lang: Lang, view: View, table: TableState, ui: UiState, seat: number) {
  const player = table.players[seat];
  // Open hands: the animated step's hands (reveal), else the view's, else the deal's end.
  const revealed = table.animating
    ? player.hand
    : (view.players[seat]?.hand ?? (view.phase === "over" ? view.result?.hands?.[seat] : undefined));
  const current = table.current_player === seat && (view.phase !== "over" || table.animating);
  return {
    seat,
    name: view.players[seat]?.name ?? "",
    revealed,
    size: player.hand_size,
    melded: player.has_melded,
    current: current || table.step?.actor === seat,
    bot: view.players[seat]?.bot ?? null,
    last: eventsCaption(lang, view.players.map((p) => p.name), seat, ui.lastTurn[seat] ?? []),
  };
}

function opponent(lang: Lang, shown: ReturnType<typeof seatShown>): HTMLElement {
  const { seat, name, revealed, current } = shown;
  const cards = revealed
    ? h(
        "div",
        {
          class: "rw-fan rw-open",
          role: "group",
          "aria-label": t(lang, "ui.hand_of", { name }),
          style: `--rw-n:${revealed.length}`,
        },
        ...revealed.map((c) => cardImage(lang, c)),
      )
    : h(
        "div",
        { class: "rw-fan", "aria-hidden": "true", style: `--rw-n:${Math.min(shown.size, 14)}` },
        // Backs drawn by CSS, not SVG: a 4-player redraw builds some forty fewer pictures.
        ...Array.from({ length: Math.min(shown.size, 14) }, () =>
          h("span", { class: "rw-card rw-back", "aria-hidden": "true" }),
        ),
      );
  return h(
    "div",
    {
      class: `rw-seat${current ? " rw-current" : ""}`,
      "data-seat": seat,
      "aria-current": current ? "true" : null,
    },
    h(
      "div",
      { class: "rw-seat-head" },
      h("h3", { class: "rw-name" }, name),
      shown.bot ? h("span", { class: "rw-bot" }, shown.bot) : null,
      h("span", { class: "rw-count" }, tn(lang, "ui.stock_count", shown.size)),
      shown.melded ? h("span", { class: "rw-note" }, t(lang, "ui.player_melded")) : null,
    ),
    cards,
    // Always there (two lines reserved), so the seats keep their height when a turn comes.
    h("p", { class: "rw-last" }, shown.last),
  );
}

function opponents(lang: Lang, view: View, table: TableState, ui: UiState, parts: Parts): HTMLElement {
  const seats = view.players.map((_, i) => i).filter((i) => i !== view.seat);
  const shown = seats.map((s) => seatShown(lang, view, table, ui, s));
  return parts.part("opponents", [lang, shown], () =>
    h("div", { class: "rw-opponents" }, ...shown.map((seat) => opponent(lang, seat))),
  );
}

function pile(
  lang: Lang,
  act: "stock" | "pile",
  enabled: boolean,
  hinted: boolean,
  face: Node,
  caption: string,
  id: string,
): HTMLElement {
  const name = t(lang, act === "stock" ? "ui.stock" : "ui.discard_pile");
  const info = `${id}-${act}`;
  return h(
    "div",
    { class: `rw-pile${enabled ? " rw-can-draw" : ""}` },
    h("span", { class: "rw-pile-name", "aria-hidden": "true" }, name),
    h(
      "button",
      {
        type: "button",
        class: `rw-pilebtn${hinted ? " rw-hinted" : ""}`,
        "data-rw-act": act,
        "data-rw-drop": act === "pile" ? "pile" : null,
        "aria-label": name,
        "aria-describedby": info,
        "aria-disabled": enabled ? null : "true",
      },
      face,
    ),
    h("span", { id: info, class: "rw-caption" }, caption),
  );
}

function piles(lang: Lang, view: View, table: TableState, id: string, parts: Parts): HTMLElement {
  const can = moves(view, table);
  const top = table.discard_top;
  const hint = view.hint?.action;
  const hinted = (source: string) => hint?.type === "draw" && hint.source === source;
  const stock = [can.draw && table.stock_size > 0, hinted("stock"), table.stock_size] as const;
  const discard = [can.draw && !!top, hinted("discard"), top] as const;
  return h(
    "div",
    { class: "rw-piles" },
    parts.part("stock", [lang, id, stock], () =>
      pile(
        lang,
        "stock",
        stock[0],
        stock[1],
        parts.part("stock-face", table.stock_size > 0, () => (table.stock_size > 0 ? cardBack() : emptyPlace())),
        tn(lang, "ui.stock_count", table.stock_size),
        id,
      ),
    ),
    parts.part("pile", [lang, id, discard], () =>
      pile(
        lang,
        "pile",
        discard[0],
        discard[1],
        parts.part("pile-face", top, () => (top ? cardFace(top) : emptyPlace())),
        top ? t(lang, "ui.discard_top", { card: cardName(lang, top) }) : t(lang, "ui.pile_empty"),
        id,
      ),
    ),
  );
}

function melds(lang: Lang, view: View, table: TableState, ui: UiState, parts: Parts): HTMLElement {
  const hintMeld = view.hint?.action.type === "lay_off" ? (view.hint.action.meld_index ?? null) : null;
  const owners = table.melds.map((m) => view.players[m.owner]?.name ?? "");
  return parts.part("melds", [lang, table.melds, owners, hintMeld, ui.target, ui.meldScale], () =>
    meldsSection(lang, view, table, ui, hintMeld),
  );
}

function meldsSection(lang: Lang, view: View, table: TableState, ui: UiState, hintMeld: number | null): HTMLElement {
  const section = h(
    "section",
    {
      class: "rw-melds",
      "aria-label": t(lang, "ui.melds"),
      "data-rw-drop": "felt",
      style: ui.meldScale < 1 ? `--rw-ms:${ui.meldScale}` : null,
    },
    h("h3", { class: "rw-sr-only" }, t(lang, "ui.melds")),
  );
  if (!table.melds.length) section.append(h("p", { class: "rw-note rw-empty-note" }, t(lang, "ui.no_melds")));
  // Screen order is meld order: the melds lie on the felt in the order they were laid down,
  // each with its number and its owner, so the numbers read left to right. The number is the
  // index the intents and `game.lay_off(card, i)` take, from 0 (docs/display.md).
  for (const meld of table.melds) {
    const name = view.players[meld.owner]?.name ?? "";
    const label = t(lang, "ui.meld_target", {
      kind: t(lang, `ui.kind.${meld.kind}`),
      index: meld.index,
      name,
      cards: cardList(lang, meld.cards),
    });
    section.append(
      h(
        "div",
        { class: "rw-owner" },
        h("span", { class: "rw-owner-name", "aria-hidden": "true" }, name),
        h(
          "button",
          {
            type: "button",
            class: hintMeld === meld.index ? "rw-meld rw-hinted" : "rw-meld",
            "data-rw-act": "target",
            "data-meld": meld.index,
            "data-rw-drop": "meld",
            "aria-pressed": ui.target === meld.index ? "true" : "false",
            "aria-label": label,
          },
          h("span", { class: "rw-meld-no", "aria-hidden": "true" }, String(meld.index)),
          ...meld.cards.map((c) => cardFace(c)),
        ),
      ),
    );
  }
  return section;
}

function hintIds(view: View): Set<number> {
  const action = view.hint?.action;
  const ids = new Set<number>();
  if (action?.card) ids.add(action.card.id);
  for (const c of action?.cards ?? []) ids.add(c.id);
  return ids;
}

/** The accessible name of a card in the hand; the card just taken from the pile says so. */
function handCardName(lang: Lang, view: View, card: Card): string | null {
  if (view.taken_from_discard?.id !== card.id || view.phase !== "play") return null;
  return `${cardName(lang, card)}, ${t(lang, "ui.taken_mark")}`;
}

function handCardAttrs(lang: Lang, view: View, ui: UiState, c: Card, hinted: Set<number>, focusable: boolean) {
  const taken = view.taken_from_discard?.id === c.id && view.phase === "play";
  return {
    class: [ui.fresh.has(c.id) ? "rw-fresh" : "", hinted.has(c.id) ? "rw-hinted" : "", taken ? "rw-taken" : ""]
      .filter(Boolean)
      .join(" "),
    "data-rw-act": "card",
    "data-card": c.id,
    "aria-pressed": ui.selected.has(c.id) ? "true" : "false",
    "aria-label": handCardName(lang, view, c),
    tabindex: focusable ? 0 : -1,
  };
}

/** One card of the hand as `hand` draws it: the card drawn goes in alone, ahead of its view. */
export function handCard(lang: Lang, view: View, ui: UiState, c: Card): HTMLElement {
  return cardButton(lang, c, handCardAttrs(lang, view, ui, c, hintIds(view), false));
}

function hand(lang: Lang, view: View, ui: UiState, id: string, parts: Parts): HTMLElement {
  const cards = orderedHand(view, ui);
  const hinted = hintIds(view);
  const focusable = cards.find((c) => ui.selected.has(c.id)) ?? cards[0];
  const heading = `${id}-hand`;
  const name = view.players[view.seat]?.name ?? "";
  // A replay of the learner's own game shows the seat named "You": say "Your hand", not "You's".
  const title =
    view.mode === "replay" && name !== t(lang, "ui.you")
      ? t(lang, "ui.hand_of", { name })
      : t(lang, "ui.your_hand");
  const penalty =
    view.penalty === null || view.mode === "replay" ? null : t(lang, "ui.hand_penalty", { n: view.penalty });
  const shown = cards.map((c) => [c, handCardAttrs(lang, view, ui, c, hinted, c === focusable)] as const);
  // The hand is a part, and each of its cards: a card that stays as it was is not built again.
  return parts.part("hand", [lang, id, title, penalty, shown], () =>
    h(
      "section",
      { class: "rw-mine" },
      h(
        "div",
        { class: "rw-mine-head" },
        h("h3", { id: heading }, title),
        penalty === null ? null : h("span", { class: "rw-penalty" }, penalty),
      ),
      h(
        "div",
        { class: "rw-hand", role: "group", "aria-labelledby": heading, style: `--rw-n:${cards.length}` },
        ...shown.map(([c, attrs]) => parts.part(`card${c.id}`, [lang, c, attrs], () => cardButton(lang, c, attrs))),
      ),
    ),
  );
}

/** Which actions are open for the current selection (Meld, Lay off, Discard). */
export function actionStates(view: View, table: TableState, selected: number) {
  const can = moves(view, table);
  return {
    meld: can.play && selected >= 3,
    layoff: can.play && selected === 1 && table.melds.length > 0,
    discard: can.play && selected === 1,
  };
}

function actions(lang: Lang, view: View, table: TableState, ui: UiState, parts: Parts): HTMLElement {
  const can = moves(view, table);
  const open = actionStates(view, table, ui.selected.size);
  const over = view.phase === "over" && !table.animating;
  const board = view.scoreboard;
  let next: Spec | null = null;
  // A classroom seat: the server deals on and keeps no take-backs or reviews; Next deal shows
  // the deal it has dealt, and after the last one the scoreboard says the match is over.
  const classroom = view.classroom === true;
  if (over && board && view.mode === "play") {
    if (!board.match_over) next = [t(lang, "ui.next_deal"), "next", true];
    else if (!classroom) next = [t(lang, "ui.play_again"), "again", true];
  }
  const specs: (Spec | null)[] = [
    [t(lang, "ui.meld"), "meld", open.meld],
    [t(lang, "ui.lay_off"), "layoff", open.layoff],
    [t(lang, "ui.discard"), "discard", open.discard],
    [t(lang, "ui.sort"), "sort", view.hand.length > 1],
    [t(lang, "ui.hint"), "hint", can.mine],
    over && view.mode === "play" && !view.review && !classroom ? [t(lang, "ui.review"), "review", true] : null,
    view.take_back == null || view.phase === "over" || classroom
      ? null
      : [t(lang, "ui.take_back"), "takeback", view.take_back && !table.animating],
    next,
  ];
  const shown = specs.filter((b): b is Spec => b !== null);
  return parts.part("actions", shown, () =>
    h("div", { class: "rw-actions" }, ...shown.map(([label, act, enabled]) => button(label, act, enabled))),
  );
}

/** A button's label, what it does and whether it is open now. */
type Spec = [string, string, boolean];

/** The one message line, right above the actions: an error, else the hint, else the turn. */
function messageLine(
  lang: Lang,
  view: View,
  table: TableState,
  ui: UiState,
  phase: Phase,
  alert: string,
  parts: Parts,
): HTMLElement {
  const hint = table.animating ? null : view.hint;
  const status = statusText(lang, view, table);
  const reason = hint?.why && hint.why !== hint.text ? hint.why : null;
  const whyKey = `why${view.rev}`;
  const inputs = [lang, alert, ui.notice, status, hint?.text, reason, whyKey, ui.open.has(whyKey), phase === "animating"];
  return parts.part("line", inputs, () => line(lang, status, hint?.text, reason, whyKey, ui, phase, alert));
}

function line(
  lang: Lang,
  status: string,
  hint: string | undefined,
  reason: string | null,
  whyKey: string,
  ui: UiState,
  phase: Phase,
  alert: string,
): HTMLElement {
  return h(
    "div",
    { class: "rw-line" },
    h("p", { class: ui.notice ? "rw-message rw-notice" : "rw-message", role: "alert" }, alert),
    h(
      "p",
      { class: `rw-status${hint ? " rw-has-hint" : ""}` },
      h("span", { class: "rw-status-text" }, status),
      hint ? h("span", { class: "rw-hint" }, hint) : null,
    ),
    reason ? why(lang, reason, whyKey, ui) : null,
    phase === "animating" ? button(t(lang, "ui.skip"), "skip", true) : null,
  );
}

/** "Why?" beside the hint: the bot's detailed reason, with its numbers, opened on demand in a
 * panel over the hand (the line keeps its height). Keyed by revision: a new hint starts closed. */
function why(lang: Lang, reason: string, key: string, ui: UiState): HTMLElement {
  return h(
    "details",
    { class: "rw-why", "data-rw-open": key, open: ui.open.has(key) },
    h("summary", {}, t(lang, "ui.why")),
    h("p", {}, reason),
  );
}

/** The scoreboard lies on the felt beside the final melds; its heading closes and opens it
 * (a new deal's scoreboard starts open). */
function scoreboard(lang: Lang, view: View, board: Scoreboard, ui: UiState): HTMLElement {
  const names = view.players.map((p) => p.name);
  const rows = names.map((name, p) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, name),
      h("td", {}, String(board.penalties[p] ?? 0)),
      h("td", {}, String(board.totals[p] ?? 0)),
    ),
  );
  const shut = `!score${board.deal}`; // "!": starts open, remembered shut (index.ts draw)
  const title = t(lang, "ui.scoreboard") + " · " + t(lang, "ui.deal_of", { n: board.deal, total: board.deals });
  return h(
    "section",
    { class: "rw-score", "aria-label": t(lang, "ui.scoreboard") },
    h(
      "details",
      { "data-rw-open": shut, open: !ui.open.has(shut) },
      h("summary", {}, h("h3", {}, title)),
      scoreTable(lang, board, rows),
    ),
  );
}

function scoreTable(lang: Lang, board: Scoreboard, rows: HTMLElement[]): HTMLElement {
  return h(
    "div",
    { class: "rw-score-body" },
    h("p", {}, board.outcome),
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t(lang, "ui.score.player")),
          h("th", { scope: "col" }, t(lang, "ui.score.deal")),
          h("th", { scope: "col" }, t(lang, "ui.score.total")),
        ),
      ),
      h("tbody", {}, ...rows),
    ),
    board.rummy && h("p", { class: "rw-note" }, t(lang, "ui.score.bonus") + `: ${board.bonus}`),
    board.standing ? h("p", {}, board.standing) : null,
  );
}

/** Where a replay stands, by the move at hand: after `step` moves the table shows move
 * `step + 1` about to be made, the n-th entry of the game's history, as the review and the
 * log number it ("Move 18 of 41"); after the last, all of them played. */
export function replayPosition(lang: Lang, step: number, total: number): string {
  return step < total ? t(lang, "ui.replay.step", { n: step + 1, total }) : t(lang, "ui.replay.end", { total });
}

function replayBar(lang: Lang, view: View, ui: UiState): HTMLElement | null {
  if (!view.replay) return null;
  const { step, total } = view.replay;
  const position = replayPosition(lang, step, total);
  const name = view.players[view.seat]?.name ?? "";
  return h(
    "div",
    { class: "rw-replay" },
    h(
      "span",
      { class: "rw-replay-title" },
      view.reveal
        ? t(lang, "ui.replay.open_hands")
        : name === t(lang, "ui.you")
          ? t(lang, "ui.replay.watching_own")
          : t(lang, "ui.replay.watching", { name }),
    ),
    button(t(lang, "ui.replay.first"), "first", step > 0),
    button(t(lang, "ui.replay.prev"), "prev", step > 0),
    button(ui.playing ? t(lang, "ui.replay.pause") : t(lang, "ui.replay.play"), "autoplay", step < total || ui.playing),
    button(t(lang, "ui.replay.next"), "fwd", step < total),
    button(t(lang, "ui.replay.last"), "last", step < total),
    h("input", {
      type: "range",
      class: "rw-slider",
      min: 0,
      max: total,
      value: step,
      "data-rw-set": "replay_step",
      "aria-label": t(lang, "ui.replay.slider"),
      "aria-valuetext": position,
    }),
    h("span", { class: "rw-replay-pos" }, position),
  );
}

function drawer(lang: Lang, view: View, table: TableState, ui: UiState, settings: Settings, parts: Parts): HTMLElement {
  const build = () => drawerDetails(lang, view, table, ui, settings);
  // Closed, the drawer shows its summary and the settings bar only: a part keyed by those.
  if (ui.open.has("drawer")) return build();
  return parts.part("drawer", [lang, settings, ui.sortBy, ui.autoSort, view.rules.keys ?? ""], build);
}

function drawerDetails(lang: Lang, view: View, table: TableState, ui: UiState, settings: Settings): HTMLElement {
  const names = view.players.map((p) => p.name);
  return h(
    "details",
    { class: "rw-drawer", "data-rw-open": "drawer", open: ui.open.has("drawer") },
    h("summary", {}, t(lang, "ui.menu")),
    h(
      "div",
      { class: "rw-drawer-body" },
      h("h4", {}, t(lang, "ui.settings")),
      settingsBar(settings, ui),
      // The log, the whole pile and the rules are drawn only while the drawer is open: a
      // closed drawer costs nothing on every redraw.
      ...(ui.open.has("drawer") ? drawerPanels(lang, view, table, names) : []),
      h("p", { class: "rw-note rw-keys" }, view.rules.keys ?? ""),
    ),
  );
}

function drawerPanels(lang: Lang, view: View, table: TableState, names: string[]): HTMLElement[] {
  // The log never runs ahead of the table: moves still to be animated are left out.
  const log = view.log.slice(0, view.log.length - (table.unseen ?? 0));
  const pileCount = table.animating ? table.discard_size : view.discard_pile.length;
  const panels: (HTMLElement | null)[] = [
    h("h4", {}, t(lang, "ui.log")),
    // The whole deal, scrolled to its newest line (index.ts); each move carries its number,
    // the one the review and the replay give it; a deal or a rebuilt stock has none.
    h(
      "ol",
      { class: "rw-log", tabindex: 0, "aria-label": t(lang, "ui.log") },
      ...log.map((e) =>
        e.move
          ? h("li", {}, h("span", { class: "rw-log-no" }, `${e.move}.`), " ", e.text ?? "")
          : h("li", { class: "rw-log-note" }, e.text ?? ""),
      ),
    ),
    h("h4", { class: "rw-pile-title" }, tn(lang, "ui.pile_whole", pileCount)),
    table.animating
      ? null
      : h(
          "ol",
          { class: "rw-row rw-pile-list" },
          ...view.discard_pile.map((c) => h("li", {}, cardImage(lang, c))),
        ),
    h(
      "table",
      { class: "rw-rules" },
      h("caption", {}, view.rules.title),
      h(
        "tbody",
        {},
        ...view.rules.rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v))),
      ),
    ),
  ];
  return panels.filter((e): e is HTMLElement => e !== null);
}

/** The review's mistakes and finds; each opens the replay there (Python outlines the better
 * move as a hint). */
function reviewList(lang: Lang, view: View): HTMLElement | null {
  const review = view.review;
  if (!review) return null;
  return h(
    "section",
    { class: "rw-review", "aria-label": t(lang, "ui.review") },
    h("p", {}, review.summary),
    h(
      "ol",
      {},
      ...review.items.map((i) =>
        h("li", {}, button(i.label, "item", true, { "data-move": String(i.move) }), " ", i.reason),
      ),
    ),
    view.replay ? button(t(lang, "ui.review.back"), "back", true) : null,
  );
}

/** The whole table for the current view. */
export function renderBoard(
  view: View,
  table: TableState,
  ui: UiState,
  settings: Settings,
  id: string,
  phase: Phase = "idle",
  alert = "",
  parts: Parts = NO_PARTS,
): HTMLElement {
  const lang = settings.lang;
  const pass = view.pass;
  // The pass screen replaces the whole table: no frame on the page to key the next draw by.
  // It keeps the table's height, so the notebook below does not jump at every pass.
  if (pass) {
    const style = ui.passHeight ? `min-height:${ui.passHeight}px` : null;
    return parts.frame(null, () =>
      h("div", { class: "rw-board rw-pass", style }, h("h3", {}, pass.title), button(pass.go, "ready", true)),
    );
  }
  const deal = view.deal ?? { number: 1, total: 1 };
  const over = view.scoreboard && view.phase === "over" && !table.animating;
  // The parts first, in the page's order, then the frame around them (parts.ts).
  const top = drawer(lang, view, table, ui, settings, parts);
  const replay = replayBar(lang, view, ui);
  const seats = opponents(lang, view, table, ui, parts);
  const centre = piles(lang, view, table, id, parts);
  const laid = melds(lang, view, table, ui, parts);
  const score = over && view.scoreboard ? scoreboard(lang, view, view.scoreboard, ui) : null;
  const mine = hand(lang, view, ui, id, parts);
  const message = messageLine(lang, view, table, ui, phase, alert, parts);
  const review = reviewList(lang, view);
  const controls = view.mode === "play" ? actions(lang, view, table, ui, parts) : null;
  // The frame is keyed by what it shows itself; with an open drawer, the replay bar, the
  // scoreboard or the review (drawn afresh each time) it is simply built.
  const keyed = !ui.open.has("drawer") && !replay && !score && !review;
  const inputs = [lang, view.players.length, phase, view.rules.title, deal.number, deal.total, view.mode];
  return parts.frame(keyed ? inputs : null, () =>
    h(
      "div",
      { class: `rw-board rw-p${view.players.length}`, "data-rw-state": phase },
      h(
        "div",
        { class: "rw-top" },
        h(
          "p",
          { class: "rw-title" },
          h("span", { class: "rw-rules-name" }, view.rules.title),
          h("span", { class: "rw-deal" }, t(lang, "ui.deal_of", { n: deal.number, total: deal.total })),
        ),
        top,
      ),
      replay,
      seats,
      h("div", { class: "rw-middle" }, centre, score, laid),
      mine,
      message,
      review,
      controls,
    ),
  );
}
