// Cards that travel across the table (Web Animations API), and the short celebration.
// Everything here draws in a layer outside the patched table, so a redraw never cuts a flight.
import { cardBack, cardFace } from "./cards";
import { h } from "./dom";
import type { Card, Step } from "./types";

/** Where a flight starts and ends, and what travels. */
export interface Flight {
  from: Element | null;
  to: Element | null;
  card: Card | null; // null: a face-down card from the stock
}

/** The flights of one bot move, found in the table after the move was drawn. */
export function flightsOf(host: HTMLElement, step: Step): Flight[] {
  const seat = host.querySelector(`.rw-seat[data-seat="${step.actor}"] .rw-fan`);
  const stock = host.querySelector('[data-rw-act="stock"]');
  const pile = host.querySelector('[data-rw-act="pile"]');
  const meld = (i: number | undefined) => host.querySelector(`.rw-meld[data-meld="${i}"]`);
  const out: Flight[] = [];
  for (const e of step.events) {
    if (e.type === "draw") {
      out.push({ from: e.source === "discard" ? pile : stock, to: seat, card: e.card ?? null });
    } else if (e.type === "discard" && e.card) {
      out.push({ from: seat, to: pile, card: e.card });
    } else if (e.type === "lay_off" && e.card) {
      out.push({ from: seat, to: meld(e.meld_index), card: e.card });
    } else if (e.type === "meld") {
      for (const card of e.cards ?? []) out.push({ from: seat, to: meld(e.meld_index), card });
    }
  }
  return out;
}

/** Measure every flight now and return its launch, which flies each card from its start to
 * its end over `duration` ms and resolves when all landed. Every position is read before the
 * first card is added (a read after a write lays the whole notebook page out again, once per
 * card), and the launch can wait for the next frame: measuring and flying are two tasks. */
export function aim(layer: HTMLElement, flights: Flight[], duration: number): () => Promise<void> {
  const base = layer.getBoundingClientRect();
  const rects = flights.map((f) => f.from && f.to && [f.from.getBoundingClientRect(), f.to.getBoundingClientRect()]);
  return () => launch(layer, flights, rects, base, duration);
}

function launch(
  layer: HTMLElement,
  flights: Flight[],
  rects: (false | null | DOMRect[])[],
  base: DOMRect,
  duration: number,
): Promise<void> {
  const runs: Promise<unknown>[] = [];
  flights.forEach((f, i) => {
    const ends = rects[i];
    if (!ends) return;
    const [a, b] = ends;
    const card = f.card ? cardFace(f.card) : cardBack();
    card.classList.add("rw-flying");
    card.style.left = `${a.left - base.left + a.width / 2}px`;
    card.style.top = `${a.top - base.top + a.height / 2}px`;
    layer.append(card);
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    if (typeof card.animate !== "function") {
      card.remove();
      return;
    }
    const run = card.animate(
      [
        { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
        { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(.9)`, opacity: 1 },
      ],
      { duration, delay: i * Math.min(80, duration / 6), easing: "cubic-bezier(.3,.7,.4,1)", fill: "forwards" },
    );
    runs.push(run.finished.catch(() => undefined).then(() => card.remove()));
  });
  return Promise.all(runs).then(() => undefined);
}

/** A short banner when the learner goes out; a click or Escape ends it early. */
export function celebrate(layer: HTMLElement, text: string, rummy: boolean, ms: number): () => void {
  const banner = h(
    "div",
    { class: `rw-celebrate${rummy ? " rw-rummy" : ""}`, "aria-hidden": "true" },
    h("span", {}, text),
  );
  layer.append(banner);
  const timer = setTimeout(() => banner.remove(), ms);
  return () => {
    clearTimeout(timer);
    banner.remove();
  };
}
