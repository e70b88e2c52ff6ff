// Card faces and backs, in the same design as the static display (rummy_widget/display).
import { h, type Attrs } from "./dom";
import { cardName, face, SUIT_SYMBOL, t, type Lang } from "./i18n";
import type { Card } from "./types";

function faceParts(card: Card): Node[] {
  const { text, suit } = face(card);
  const symbol = SUIT_SYMBOL[suit] ?? "?";
  return [
    h("span", { class: "rw-corner", "aria-hidden": "true" }, text, h("br"), symbol),
    h("span", { class: "rw-pip", "aria-hidden": "true" }, symbol),
  ];
}

/** A face-up card as a button whose accessible name says the card. */
export function cardButton(lang: Lang, card: Card, attrs: Attrs = {}): HTMLButtonElement {
  const { suit } = face(card);
  const extra = attrs.class ? ` ${attrs.class}` : "";
  return h(
    "button",
    { ...attrs, type: "button", class: `rw-card rw-${suit}${extra}`, "aria-label": cardName(lang, card) },
    ...faceParts(card),
  );
}

/** A face-up card that is only a picture (its name still read out). */
export function cardImage(lang: Lang, card: Card, extraClass = ""): HTMLElement {
  const { suit } = face(card);
  return h(
    "span",
    { class: `rw-card rw-${suit} ${extraClass}`.trim(), role: "img", "aria-label": cardName(lang, card) },
    ...faceParts(card),
  );
}

/** A decorative face (its name is given by the control around it). */
export function cardFace(card: Card, extraClass = ""): HTMLElement {
  const { suit } = face(card);
  return h("span", { class: `rw-card rw-${suit} ${extraClass}`.trim(), "aria-hidden": "true" }, ...faceParts(card));
}

/** A face-down card: it says only that it is face down, never which card it is. */
export function cardBack(lang: Lang, decorative = true): HTMLElement {
  return decorative
    ? h("span", { class: "rw-card rw-back", "aria-hidden": "true" })
    : h("span", { class: "rw-card rw-back", role: "img", "aria-label": t(lang, "card.face_down") });
}
