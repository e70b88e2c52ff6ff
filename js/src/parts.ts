// Parts of the table that are drawn again only when their inputs change.
//
// A learner's move changes the hand, the piles and the message line; the opponents, the melds
// and the closed drawer are usually the same as before. Building them again and comparing them
// with the page was most of a redraw's script (docs/widget.md, "The stock click"). A part is
// named, and keyed by the JSON of exactly the inputs its builder reads: when the key is the
// one the page shows, the builder is not called and a stand-in tells `patch` to leave the live
// part alone. A key says what the page shows only while nothing else touched the part, so code
// that changes a part in place calls `forget`.
import { h, KEEP } from "./dom";

const PART = "data-rw-part";

export interface Parts {
  /** The part `name`: built by `build`, or a stand-in when the page already shows `inputs`. */
  part(name: string, inputs: unknown, build: () => HTMLElement): HTMLElement;
}

/** Every part built afresh (tests, and tables drawn once). */
export const NO_PARTS: Parts = { part: (_name, _inputs, build) => build() };

interface Shown {
  el: Element;
  key: string;
}

export class PartCache implements Parts {
  /** Each part on the page and the key it was last drawn from. */
  private readonly shown = new Map<string, Shown>();
  /** The parts built in the draw under way: known on the page once it is patched. */
  private readonly built = new Map<string, Shown>();
  /** The stand-ins given out in the draw under way. */
  private readonly kept: Element[] = [];

  constructor(private readonly host: HTMLElement) {}

  part(name: string, inputs: unknown, build: () => HTMLElement): HTMLElement {
    const key = JSON.stringify(inputs);
    const live = this.shown.get(name);
    if (live && live.key === key && this.onPage(live.el)) {
      // A plain element, whatever the part's tag: a <details> or an SVG would cost more to make.
      const keep = h("i", { [PART]: name, [KEEP]: true });
      this.kept.push(keep);
      return keep;
    }
    const el = build();
    el.setAttribute(PART, name);
    this.built.set(name, { el, key });
    return el;
  }

  /**
   * After the patch: note which element shows each part built (the new one if `patch` put it
   * in, else the one it made equal to it). False if a stand-in found no part to stand for (the
   * table's shape changed around it) and went into the page itself: the caller draws again,
   * with every part built.
   */
  settle(): boolean {
    for (const [name, built] of this.built) {
      const before = this.shown.get(name)?.el;
      const el = this.onPage(built.el)
        ? built.el
        : before && this.onPage(before)
          ? before
          : this.host.querySelector(`[${PART}="${name}"]`);
      if (el) this.shown.set(name, { el, key: built.key });
      else this.shown.delete(name);
    }
    this.built.clear();
    const lost = this.kept.some((keep) => keep.isConnected);
    this.kept.length = 0;
    if (lost) this.forget();
    return !lost;
  }

  /** The page's copy of these parts (all, by default) was changed in place: build them next time. */
  forget(...names: string[]): void {
    if (!names.length) this.shown.clear();
    for (const name of names) this.shown.delete(name);
  }

  private onPage(el: Element): boolean {
    return el.isConnected && this.host.contains(el);
  }
}
