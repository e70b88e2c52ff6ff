// Translation tables shared with Python (rummy_widget/locales); same {placeholder} syntax as
// str.format. The build keeps only the keys the front end uses (see build.mjs).
import en from "../../rummy_widget/locales/en.json";
import fi from "../../rummy_widget/locales/fi.json";
import type { Card } from "./types";

export type Lang = "en" | "fi";
export const LANGS: Lang[] = ["en", "fi"];
const TABLES: Record<Lang, Record<string, string>> = { en, fi };

export function isLang(value: unknown): value is Lang {
  return value === "en" || value === "fi";
}

/** The text for `key` in `lang` (English if missing there, the key itself as a last resort). */
export function t(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const text = TABLES[lang][key] ?? TABLES.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** Like t, but with `key_one` for a count of exactly one ("1 card", not "1 cards"). */
export function tn(lang: Lang, key: string, n: number, params: Record<string, string | number> = {}): string {
  const one = `${key}_one`;
  return t(lang, n === 1 && (one in TABLES[lang] || one in TABLES.en) ? one : key, { ...params, n });
}

export const SUIT_SYMBOL: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** Rank 1..13 and suit letter of a card code such as "10H" or "QS". */
export function face(card: Card): { rank: number; suit: string; text: string } {
  const text = card.code.slice(0, -1);
  const suit = card.code.slice(-1);
  const named: Record<string, number> = { A: 1, J: 11, Q: 12, K: 13 };
  return { rank: named[text] ?? Number(text), suit, text };
}

/** The spoken name: "7 of hearts", "herttaseiska"; `form` "gen" / "part" gives the Finnish
 * cases a sentence may need ("herttaseiskan", "herttaseiskaa"), from the same keys as Python's
 * card_name. */
export function cardName(lang: Lang, card: Card, form: "nom" | "gen" | "part" = "nom"): string {
  const { rank, suit } = face(card);
  return t(lang, "card.name", {
    rank: t(lang, form === "nom" ? `card.rank.${rank}` : `card.rank.${rank}.${form}`),
    suit: t(lang, `card.suit.${suit}`),
  });
}

export function cardList(lang: Lang, cards: Card[]): string {
  return cards.map((c) => cardName(lang, c)).join(", ");
}

/** The short written name for captions and messages: "Q♠", "10♥". */
export function shortName(card: Card): string {
  const { text, suit } = face(card);
  return `${text}${SUIT_SYMBOL[suit] ?? suit}`;
}

export function shortList(cards: Card[]): string {
  return cards.map(shortName).join(" ");
}
