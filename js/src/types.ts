// The shapes the Python side syncs (rummy_widget/table/view.py, built by table/core.py) and the
// model anywidget hands us. This file is their one definition in the front end; the contract
// test (test/contract.test.ts) reads real views that tests/test_table_core.py dumps as fixtures.

export interface Card {
  id: number;
  code: string;
}

export interface Player {
  name: string;
  hand_size: number;
  has_melded: boolean;
  /** Only with reveal (the teacher's open-hands demo). */
  hand?: Card[];
  /** A bot's seat: which bot it is ("Expert bot"), localized in Python. */
  bot?: string;
}

export interface MeldView {
  index: number;
  owner: number;
  kind: "set" | "run";
  cards: Card[];
}

export interface LogEvent {
  type: "deal" | "draw" | "meld" | "lay_off" | "discard" | "rebuild" | "end";
  player?: number;
  dealer?: number;
  source?: "stock" | "discard";
  card?: Card;
  cards?: Card[];
  meld_index?: number;
  count?: number;
  winner?: number | null;
  rummy?: boolean;
  void?: boolean;
  /** The move in words, from the seat's point of view, in the view's language (Python's). */
  text?: string;
  /** A move's number: the n-th entry of the game's history, from 1, as the review and the
   * replay number it. A deal, a rebuilt stock and a deal's end have none. */
  move?: number;
}

/** The card a seat just drew, sent to its screen ahead of the view (table/view.py's
 * drawn_message): `rev` is the view's that follows. */
export interface Drawn {
  type: "drawn";
  rev: number;
  card: Card;
  source: "stock" | "discard";
}

/** The public table after one bot move, for animating the bots' turns. */
export interface Snapshot {
  players: { hand_size: number; has_melded: boolean }[];
  current_player: number;
  stock_size: number;
  discard_top: Card | null;
  discard_size: number;
  melds: MeldView[];
  /** Every hand after the move, only with reveal (the teacher's open-hands demo). */
  hands?: Card[][];
}

export interface Step {
  /** The seat that made the move. */
  actor: number;
  events: LogEvent[];
  table: Snapshot;
}

export interface Scoreboard {
  winner: number | null;
  rummy: boolean;
  void: boolean;
  bonus: number;
  penalties: number[];
  deal: number;
  deals: number;
  totals: number[];
  match_over: boolean;
  /** The deal's outcome and, once the match is over, its standing: localized in Python. */
  outcome: string;
  standing: string | null;
}

export interface HintAction {
  type: "draw" | "meld" | "lay_off" | "discard";
  source?: "stock" | "discard";
  card?: Card;
  cards?: Card[];
  meld_index?: number;
}

export interface View {
  mode: "play" | "replay";
  rev: number;
  seat: number;
  reveal: boolean;
  players: Player[];
  dealer: number;
  current_player: number;
  phase: "draw" | "play" | "over";
  hand: Card[];
  penalty: number | null;
  stock_size: number;
  discard_pile: Card[];
  melds: MeldView[];
  taken_from_discard: Card | null;
  /** The whole log of the deal. */
  log: LogEvent[];
  /** Once the deal is over every hand is shown, by the rules. */
  result: {
    winner: number | null;
    rummy: boolean;
    void: boolean;
    penalties: number[];
    hands: Card[][];
  } | null;
  scoreboard: Scoreboard | null;
  /** `keys`: the keyboard help, sent with the rules (it changes only with the language). */
  rules: { name: string; title: string; rows: [string, string][]; keys?: string };
  /** `why`: the detailed reason, with its numbers (the bots' `why`). */
  hint: { action: HintAction; text: string; why?: string } | null;
  message: { id: number; kind: string; text: string } | null;
  steps: Step[];
  replay: { step: number; total: number } | null;
  /** None: the table offers no take-backs; else whether one is allowed now. */
  take_back: boolean | null;
  /** The seat's review of the finished deal, localized in Python; null before one. */
  /** Hot seat: the screen waits to be passed (no hand in this view); texts from Python. */
  pass: { title: string; go: string } | null;
  review: { summary: string; items: { move: number; verdict: string; cost: number; label: string; reason: string }[] } | null;
  deal: { number: number; total: number };
  /** A seat at a classroom server's table (RemoteTable): no review, take-back or replay. */
  classroom?: boolean;
}

type Handler = (...args: any[]) => void;

/** The part of anywidget's model the table uses. */
export interface Model {
  get(name: string): any;
  set(name: string, value: unknown): void;
  save_changes(): void;
  on(event: string, callback: Handler): void;
  off(event?: string | null, callback?: Handler | null): void;
  send(content: unknown, callbacks?: unknown, buffers?: unknown[]): void;
}
