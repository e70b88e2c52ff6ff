// Renders the table from the seat's view: a pure function of the view and the local UI state,
// so the controller can simply re-render after every change.
import { cardBack, cardButton, cardFace, cardImage, emptyPlace } from "./cards";
import { h } from "./dom";
import { cardList, cardName, t, tn, tYou, type Lang } from "./i18n";
import type { Card, LogEvent, MeldView, Player, Scoreboard, View } from "./types";

export type SortBy = "rank" | "suit";
export type Speed = "instant" | "fast" | "normal" | "slow";

export interface UiState {
  /** The learner's order of the hand (card ids). */
  order: number[];
  selected: Set<number>;
  /** The meld chosen as the target of a lay-off. */
  target: number | null;
  sortBy: SortBy;
  /** Which <details> panels are open, by key. */
  open: Set<string>;
  /** Cards that just arrived in the hand. */
  fresh: Set<number>;
}

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

/** One log event in words; `you` is the learner's seat (their own moves read "You drew"). */
export function logText(lang: Lang, names: string[], event: LogEvent, you = -1): string {
  const name = names[event.player ?? 0] ?? "";
  const mine = event.player === you;
  switch (event.type) {
    case "deal":
      return tYou(lang, "log.deal", event.dealer === you, { name: names[event.dealer ?? 0] ?? "" });
    case "draw":
      return event.source === "discard" && event.card
        ? tYou(lang, "log.draw_discard", mine, { name, card: cardName(lang, event.card) })
        : tYou(lang, "log.draw_stock", mine, { name });
    case "meld":
      return tYou(lang, "log.meld", mine, { name, cards: cardList(lang, event.cards ?? []) });
    case "lay_off":
      return tYou(lang, "log.lay_off", mine, {
        name,
        card: event.card ? cardName(lang, event.card) : "",
        index: event.meld_index ?? 0,
      });
    case "discard":
      return tYou(lang, "log.discard", mine, { name, card: event.card ? cardName(lang, event.card) : "" });
    case "rebuild":
      return t(lang, "log.rebuild");
    case "end":
      if (event.void || event.winner === null || event.winner === undefined) {
        return t(lang, "log.end_void");
      }
      return tYou(lang, event.rummy ? "log.end_rummy" : "log.end_out", event.winner === you, {
        name: names[event.winner] ?? "",
      });
  }
  return "";
}

/** The seat whose moves read "You ...": the learner's, in play (a replay names everyone). */
export function youSeat(view: View): number {
  return view.mode === "play" ? view.seat : -1;
}

function statusText(lang: Lang, view: View, table: TableState): string {
  if (view.phase === "over" && !table.animating) return t(lang, "ui.turn.over");
  const current = table.players[table.current_player];
  if (table.current_player !== view.seat || table.animating || view.mode === "replay") {
    return t(lang, "ui.turn.other", { name: current?.name ?? "" });
  }
  return t(lang, view.phase === "draw" ? "ui.turn.draw" : "ui.turn.play");
}

function button(label: string, act: string, enabled: boolean, extra: Record<string, string> = {}) {
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

function select(
  label: string,
  setting: string,
  value: string,
  options: [string, string][],
): HTMLElement {
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

function settingsBar(s: Settings): HTMLElement {
  const lang = s.lang;
  return h(
    "div",
    { class: "rw-settings" },
    select(t(lang, "ui.language"), "lang", lang, [
      ["en", t(lang, "ui.lang_name.en")],
      ["fi", t(lang, "ui.lang_name.fi")],
    ]),
    checkbox(t(lang, "ui.four_color"), "four_color", s.fourColor),
    checkbox(t(lang, "ui.large"), "size", s.size === "large"),
    select(
      t(lang, "ui.speed"),
      "bot_speed",
      s.speed,
      SPEEDS.map((v) => [v, t(lang, `ui.speed.${v}`)]),
    ),
  );
}

function opponent(lang: Lang, view: View, table: TableState, seat: number): HTMLElement {
  const player = table.players[seat];
  const name = view.players[seat]?.name ?? "";
  const fan = h("div", { class: "rw-fan", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(player.hand_size, 12); i++) fan.append(cardBack(lang));
  const revealed = view.players[seat]?.hand ?? view.result?.hands?.[seat];
  return h(
    "div",
    {
      class: `rw-seat${table.current_player === seat && view.phase !== "over" ? " rw-current" : ""}`,
      "aria-current": table.current_player === seat && view.phase !== "over" ? "true" : null,
    },
    h("h3", { class: "rw-name" }, name),
    h("p", {}, tn(lang, "ui.stock_count", player.hand_size)),
    player.has_melded && h("p", { class: "rw-note" }, t(lang, "ui.player_melded")),
    revealed && !table.animating
      ? h(
          "div",
          { class: "rw-row", role: "group", "aria-label": t(lang, "ui.hand_of", { name }) },
          ...revealed.map((c) => cardImage(lang, c)),
        )
      : fan,
  );
}

function piles(lang: Lang, view: View, table: TableState, ui: UiState, id: string): HTMLElement {
  const can = moves(view, table);
  const stockInfo = `${id}-stock`;
  const pileInfo = `${id}-pile`;
  const top = table.discard_top;
  const hint = view.hint?.action;
  const hinted = (source: string) =>
    hint?.type === "draw" && hint.source === source ? "rw-pilebtn rw-hinted" : "rw-pilebtn";
  const pileDetails = h(
    "details",
    { class: "rw-details", "data-rw-open": "pile", open: ui.open.has("pile") },
    h(
      "summary",
      {},
      tn(lang, "ui.pile_whole", table.animating ? table.discard_size : view.discard_pile.length),
    ),
    table.animating
      ? null
      : h("ol", { class: "rw-row rw-pile-list" }, ...view.discard_pile.map((c) => h("li", {}, cardImage(lang, c)))),
  );
  return h(
    "div",
    { class: "rw-piles" },
    h(
      "div",
      { class: "rw-pile" },
      h(
        "button",
        {
          type: "button",
          class: hinted("stock"),
          "data-rw-act": "stock",
          "aria-label": t(lang, "ui.stock"),
          "aria-describedby": stockInfo,
          "aria-disabled": can.draw && table.stock_size > 0 ? null : "true",
        },
        table.stock_size > 0 ? cardBack(lang) : emptyPlace(),
      ),
      h("span", { id: stockInfo, class: "rw-caption" }, tn(lang, "ui.stock_count", table.stock_size)),
    ),
    h(
      "div",
      { class: "rw-pile" },
      h(
        "button",
        {
          type: "button",
          class: hinted("discard"),
          "data-rw-act": "pile",
          "aria-label": t(lang, "ui.discard_pile"),
          "aria-describedby": pileInfo,
          "aria-disabled": can.draw && top ? null : "true",
        },
        top ? cardFace(top) : emptyPlace(),
      ),
      h(
        "span",
        { id: pileInfo, class: "rw-caption" },
        top ? t(lang, "ui.discard_top", { card: cardName(lang, top) }) : t(lang, "ui.pile_empty"),
      ),
    ),
    pileDetails,
  );
}

function melds(lang: Lang, view: View, table: TableState, ui: UiState): HTMLElement {
  const section = h(
    "section",
    { class: "rw-melds", "aria-label": t(lang, "ui.melds") },
    h("h3", {}, t(lang, "ui.melds")),
  );
  if (!table.melds.length) section.append(h("p", { class: "rw-note" }, t(lang, "ui.no_melds")));
  const owners = [...new Set(table.melds.map((m) => m.owner))].sort((a, b) => a - b);
  for (const owner of owners) {
    const name = view.players[owner]?.name ?? "";
    const group = h("div", { class: "rw-row" });
    for (const meld of table.melds.filter((m) => m.owner === owner)) {
      const label = t(lang, "ui.meld_target", {
        kind: t(lang, `ui.kind.${meld.kind}`),
        index: meld.index,
        name,
        cards: cardList(lang, meld.cards),
      });
      group.append(
        h(
          "button",
          {
            type: "button",
            class:
              view.hint?.action.type === "lay_off" && view.hint.action.meld_index === meld.index
                ? "rw-meld rw-hinted"
                : "rw-meld",
            "data-rw-act": "target",
            "data-meld": meld.index,
            "aria-pressed": ui.target === meld.index ? "true" : "false",
            "aria-label": label,
          },
          h("span", { class: "rw-meld-no", "aria-hidden": "true" }, String(meld.index)),
          ...meld.cards.map((c) => cardFace(c)),
        ),
      );
    }
    section.append(h(
        "div",
        { class: "rw-owner" },
        h("h4", {}, owner === view.seat ? t(lang, "ui.your_melds") : t(lang, "ui.melds_of", { name })),
        group,
      ));
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

function hand(lang: Lang, view: View, table: TableState, ui: UiState, id: string): HTMLElement {
  const can = moves(view, table);
  const cards = orderedHand(view, ui);
  const hinted = hintIds(view);
  const focusable = cards.find((c) => ui.selected.has(c.id)) ?? cards[0];
  const sel = ui.selected.size;
  const sortOptions: [string, string][] = [
    ["rank", t(lang, "ui.sort.rank")],
    ["suit", t(lang, "ui.sort.suit")],
  ];
  const heading = `${id}-hand`;
  return h(
    "section",
    { class: "rw-mine" },
    h("h3", { id: heading }, t(lang, "ui.your_hand")),
    view.penalty === null
      ? null
      : h("p", { class: "rw-penalty" }, t(lang, "ui.hand_penalty", { n: view.penalty })),
    h(
      "div",
      { class: "rw-hand", role: "group", "aria-labelledby": heading },
      ...cards.map((c) =>
        cardButton(lang, c, {
          class: [
            ui.fresh.has(c.id) ? "rw-fresh" : "",
            hinted.has(c.id) ? "rw-hinted" : "",
            view.taken_from_discard?.id === c.id ? "rw-taken" : "",
          ]
            .filter(Boolean)
            .join(" "),
          "data-rw-act": "card",
          "data-card": c.id,
          "aria-pressed": ui.selected.has(c.id) ? "true" : "false",
          tabindex: c === focusable ? 0 : -1,
        }),
      ),
    ),
    h(
      "div",
      { class: "rw-actions" },
      button(t(lang, "ui.meld"), "meld", can.play && sel >= 3),
      button(t(lang, "ui.lay_off"), "layoff", can.play && sel === 1 && table.melds.length > 0),
      button(t(lang, "ui.discard"), "discard", can.play && sel === 1),
      button(t(lang, "ui.sort"), "sort", cards.length > 1),
      select(t(lang, "ui.sort_by"), "sortby", ui.sortBy, sortOptions),
      button(t(lang, "ui.hint"), "hint", can.mine),
    ),
    view.hint && h("p", { class: "rw-hint" }, view.hint.text),
    h("p", { class: "rw-note rw-keys" }, t(lang, "ui.keys")),
  );
}

function scoreboard(lang: Lang, view: View, board: Scoreboard): HTMLElement {
  const names = view.players.map((p) => p.name);
  const outcome = board.void
    ? t(lang, "ui.result.void")
    : tYou(lang, board.rummy ? "ui.result.rummy" : "ui.result.out", board.winner === youSeat(view), {
        name: names[board.winner ?? 0] ?? "",
        bonus: board.bonus,
      });
  const best = Math.min(...board.totals);
  const leaderSeat = board.totals.indexOf(best);
  const leader = names[leaderSeat] ?? "";
  const rows = names.map((name, p) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, name),
      h("td", {}, String(board.penalties[p] ?? 0)),
      h("td", {}, String(board.totals[p] ?? 0)),
    ),
  );
  return h(
    "section",
    { class: "rw-score", "aria-label": t(lang, "ui.scoreboard") },
    h("h3", {}, t(lang, "ui.scoreboard") + " · " + t(lang, "ui.deal_of", { n: board.deal, total: board.deals })),
    h("p", {}, outcome),
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
    board.match_over
      ? h("p", {}, tYou(lang, "ui.match_over", leaderSeat === youSeat(view), { name: leader }))
      : view.mode === "play" && button(t(lang, "ui.next_deal"), "next", true),
  );
}

function replayBar(lang: Lang, view: View): HTMLElement | null {
  if (!view.replay) return null;
  const { step, total } = view.replay;
  return h(
    "div",
    { class: "rw-replay" },
    button(t(lang, "ui.replay.prev"), "prev", step > 0),
    h("span", {}, t(lang, "ui.replay.step", { n: step, total })),
    button(t(lang, "ui.replay.next"), "fwd", step < total),
  );
}

function details(key: string, title: string, ui: UiState, body: Node): HTMLElement {
  return h(
    "details",
    { class: "rw-details", "data-rw-open": key, open: ui.open.has(key) },
    h("summary", {}, title),
    body,
  );
}

/** The whole table for the current view. */
export function renderBoard(
  view: View,
  table: TableState,
  ui: UiState,
  settings: Settings,
  id: string,
): HTMLElement {
  const lang = settings.lang;
  const names = view.players.map((p) => p.name);
  const seats = view.players.map((_, i) => i).filter((i) => i !== view.seat);
  const log = view.log.slice(-15);
  const logStart = view.log_start + view.log.length - log.length + 1;
  const board = h(
    "div",
    { class: "rw-board" },
    h(
      "div",
      { class: "rw-bar" },
      h("p", { class: "rw-status" }, statusText(lang, view, table)),
      settingsBar(settings),
    ),
    replayBar(lang, view),
    h("div", { class: "rw-opponents" }, ...seats.map((s) => opponent(lang, view, table, s))),
    h("div", { class: "rw-middle" }, piles(lang, view, table, ui, id), melds(lang, view, table, ui)),
    hand(lang, view, table, ui, id),
    view.scoreboard && !table.animating ? scoreboard(lang, view, view.scoreboard) : null,
    details(
      "log",
      t(lang, "ui.log"),
      ui,
      h("ol", { class: "rw-log", start: logStart }, ...log.map((e) => h("li", {}, logText(lang, names, e, youSeat(view))))),
    ),
    details(
      "rules",
      t(lang, "ui.rules"),
      ui,
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
    ),
  );
  return board;
}
