// Card faces and backs as controls and pictures, drawn as in the static display (src/svg.ts).
import { h, type Attrs } from "./dom";
import { cardName, face, type Lang } from "./i18n";
import { backSvg, emptySvg, faceSvg } from "./svg";
import type { Card } from "./types";

function picture(card: Card): SVGElement {
  const { text, suit } = face(card);
  return faceSvg(text, suit);
}

function classes(card: Card, extra: unknown): string {
  return `rw-card rw-${face(card).suit}${extra ? ` ${extra}` : ""}`;
}

/** A face-up card as a button whose accessible name says the card. */
export function cardButton(lang: Lang, card: Card, attrs: Attrs = {}): HTMLButtonElement {
  return h(
    "button",
    {
      ...attrs,
      type: "button",
      class: classes(card, attrs.class),
      "aria-label": attrs["aria-label"] ?? cardName(lang, card),
    },
    picture(card),
  );
}

/** A face-up card that is only a picture (its name is still read out). */
export function cardImage(lang: Lang, card: Card): HTMLElement {
  return h("span", { class: classes(card, ""), role: "img", "aria-label": cardName(lang, card) }, picture(card));
}

/** A decorative face (the control around it gives the name). */
export function cardFace(card: Card): HTMLElement {
  return h("span", { class: classes(card, ""), "aria-hidden": "true" }, picture(card));
}

/** A face-down card, always decorative: the control around it (Stock) gives the name, and it
 * never says which card it is. */
export function cardBack(): HTMLElement {
  return h("span", { class: "rw-card rw-back", "aria-hidden": "true" }, backSvg());
}

export function emptyPlace(): HTMLElement {
  return h("span", { class: "rw-card rw-empty", "aria-hidden": "true" }, emptySvg());
}
