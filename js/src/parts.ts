// Parts of the table that are drawn again only when their inputs change.
//
// A learner's move changes the hand, the piles and the message line; the opponents, the melds
// and the closed drawer are usually the same as before. Building them again and comparing them
// with the page was most of a redraw's script (docs/widget.md, "The stock click"). A part is
// named, and keyed by the JSON of exactly the inputs its builder reads: when the key is the
// one the page shows, the builder is not called and a stand-in tells `patch` to leave the live
// part alone. A key says what the page shows only while nothing else touched the part, so code
// that changes a part in place calls `forget`.
//
// The frame around the parts (the table's outer elements, its title) is a part too: when its
// inputs are the page's and every part built in this draw has its copy on the page, each is
// patched into that copy and the frame is neither built nor compared (`frame`).
import { h, KEEP, patch, type KeyOf } from "./dom";

const PART = "data-rw-part";
const FRAME = "frame";

export interface Parts {
  /** The part `name`: built by `build`, or a stand-in when the page already shows `inputs`. */
  part(name: string, inputs: unknown, build: () => HTMLElement): HTMLElement;
  /**
   * The frame around this draw's parts, asked for after them: built by `build`, or, when the
   * page shows `inputs` (null: inputs the frame cannot be keyed by), a stand-in after the
   * parts built in this draw went straight into their copies on the page.
   */
  frame(inputs: unknown[] | null, build: () => HTMLElement): HTMLElement;
}

/** Every part built afresh (tests, and tables drawn once). */
export const NO_PARTS: Parts = { part: (_name, _inputs, build) => build(), frame: (_inputs, build) => build() };

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

  constructor(
    private readonly host: HTMLElement,
    /** `patch`'s key of the page's elements, for the parts patched in place. */
    private readonly key: KeyOf = () => undefined,
  ) {}

  part(name: string, inputs: unknown, build: () => HTMLElement): HTMLElement {
    return this.shownOrBuilt(name, JSON.stringify(inputs), () => true, build);
  }

  frame(inputs: unknown[] | null, build: () => HTMLElement): HTMLElement {
    if (inputs === null) {
      this.shown.delete(FRAME);
      return build();
    }
    return this.shownOrBuilt(FRAME, JSON.stringify(inputs), () => this.patchInPlace(), build);
  }

  /** A stand-in when the page shows `key` for `name` and `reuse()` agrees, else `build()`. */
  private shownOrBuilt(name: string, key: string, reuse: () => boolean, build: () => HTMLElement): HTMLElement {
    const live = this.shown.get(name);
    if (live && live.key === key && this.onPage(live.el) && reuse()) {
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

  /** Each part built in this draw (not inside another one) patched into its copy on the page;
   * false, with nothing touched, unless every one has such a copy of its own kind. */
  private patchInPlace(): boolean {
    const built = [...this.built.values()].map((b) => b.el);
    const outer = built.filter((el) => !built.some((other) => other !== el && other.contains(el)));
    const pairs = outer.map((el) => [this.shown.get(el.getAttribute(PART) ?? "")?.el, el] as const);
    if (pairs.some(([live, el]) => !live || !this.onPage(live) || live.nodeName !== el.nodeName)) return false;
    for (const [live, el] of pairs) patch(live as Element, el, this.key);
    return true;
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
