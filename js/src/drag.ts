// Drag and drop with Pointer Events (mouse, touch and pen alike): reorder the hand, drop a card
// on the discard pile to discard it, on a meld to lay it off, or selected cards on the felt to
// meld them. A drag starts only after a small movement, so a tap or a click stays a click.

export interface DragHandlers {
  canDrag(id: number): boolean;
  /** Move card `id` before card `before` (null: to the end). */
  reorder(id: number, before: number | null): void;
  /** Cards dropped on the pile, a meld (with its index) or the felt. */
  drop(ids: number[], target: string, meld: number | null): void;
  selected(): number[];
}

/** Pixels a pointer must travel before a press becomes a drag. */
export const DRAG_THRESHOLD = 8;

interface Press {
  id: number;
  pointer: number;
  x: number;
  y: number;
  card: HTMLElement;
  ghost: HTMLElement | null;
  over: Element | null;
}

export function attachDrag(root: HTMLElement, handlers: DragHandlers): void {
  let press: Press | null = null;
  let swallowClick = false;

  const pick = (x: number, y: number): Element | null => {
    const scope = root.getRootNode() as Document | ShadowRoot;
    return (scope.elementFromPoint?.(x, y) ?? null) as Element | null;
  };

  const targetAt = (x: number, y: number): Element | null => {
    const el = pick(x, y);
    if (!el || !root.contains(el)) return null;
    return el.closest(".rw-hand [data-card]") ?? el.closest("[data-rw-drop]") ?? el.closest(".rw-hand");
  };

  const mark = (el: Element | null) => {
    if (press?.over === el) return;
    press?.over?.classList.remove("rw-drop-over");
    el?.classList.add("rw-drop-over");
    if (press) press.over = el;
  };

  root.addEventListener("pointerdown", (e: PointerEvent) => {
    if (e.button !== 0) return;
    const card = (e.target as Element).closest<HTMLElement>(".rw-hand [data-card]");
    if (!card || !root.contains(card)) return;
    const id = Number(card.dataset.card);
    if (!handlers.canDrag(id)) return;
    press = { id, pointer: e.pointerId, x: e.clientX, y: e.clientY, card, ghost: null, over: null };
  });

  root.addEventListener("pointermove", (e: PointerEvent) => {
    if (!press || e.pointerId !== press.pointer) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.ghost) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      press.ghost = ghostOf(root, press);
      press.card.classList.add("rw-dragging");
      press.card.setPointerCapture?.(e.pointerId);
    }
    e.preventDefault();
    press.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    const over = targetAt(e.clientX, e.clientY);
    mark(over && over !== press.card ? over : null);
  });

  const end = (e: PointerEvent, cancelled: boolean) => {
    if (!press || e.pointerId !== press.pointer) return;
    const done = press;
    press = null;
    done.card.classList.remove("rw-dragging");
    done.over?.classList.remove("rw-drop-over");
    if (!done.ghost) return; // a click: the click handler takes it
    done.ghost.remove();
    swallowClick = true;
    setTimeout(() => (swallowClick = false), 0);
    if (cancelled) return;
    const over = targetAt(e.clientX, e.clientY);
    if (!over) return;
    const chosen = handlers.selected();
    const ids = chosen.includes(done.id) && chosen.length > 1 ? chosen : [done.id];
    const card = over.closest<HTMLElement>(".rw-hand [data-card]");
    if (card) {
      const other = Number(card.dataset.card);
      if (other === done.id) return;
      const box = card.getBoundingClientRect();
      const after = e.clientX > box.left + box.width / 2;
      const next = after ? (card.nextElementSibling as HTMLElement | null) : card;
      handlers.reorder(done.id, next ? Number(next.dataset.card) : null);
      return;
    }
    const drop = (over as HTMLElement).dataset?.rwDrop;
    if (!drop) return;
    const meld = drop === "meld" ? Number((over as HTMLElement).dataset.meld) : null;
    handlers.drop(ids, drop, meld);
  };

  root.addEventListener("pointerup", (e) => end(e, false));
  root.addEventListener("pointercancel", (e) => end(e, true));
  // The click that ends a drag is not a selection.
  root.addEventListener(
    "click",
    (e) => {
      if (swallowClick) {
        e.stopPropagation();
        e.preventDefault();
        swallowClick = false;
      }
    },
    true,
  );
}

function ghostOf(root: HTMLElement, press: Press): HTMLElement {
  const layer = root.querySelector<HTMLElement>(".rw-layer") ?? root;
  const base = layer.getBoundingClientRect();
  const box = press.card.getBoundingClientRect();
  const ghost = press.card.cloneNode(true) as HTMLElement;
  ghost.removeAttribute("data-rw-act");
  ghost.removeAttribute("data-card");
  ghost.removeAttribute("aria-label");
  ghost.setAttribute("tabindex", "-1");
  ghost.classList.add("rw-ghost");
  ghost.style.left = `${box.left - base.left}px`;
  ghost.style.top = `${box.top - base.top}px`;
  layer.append(ghost);
  return ghost;
}
