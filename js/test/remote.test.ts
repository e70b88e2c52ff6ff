// The classroom relay (src/remote.ts) with a fake WebSocket: frames both ways, the seat's token
// kept per (server, room, name), reconnection with backoff; and a classroom seat's views that
// add the next seat's move to the steps being shown.
import { afterEach, describe, expect, test, vi } from "vitest";
import widget from "../src/index";
import { FIRST_DELAY, LAST_DELAY, relay } from "../src/remote";
import type { Step } from "../src/types";
import { card, FakeModel, makeView, mountedTable } from "./helpers";

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {
    this.closed = true;
    this.drop();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  frame(message: object): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.();
  }
}

class MemoryStore {
  items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

const WHERE = { url: "ws://10.0.0.5:8765/ws", room: "KETTU", name: "Alex" };
const open = (url: string) => new FakeSocket(url);

/** The kernel's side: custom messages to the front end go to every "msg:custom" handler. */
function kernelSends(model: FakeModel, content: object): void {
  const handlers = (model as unknown as { handlers: Map<string, Set<(m: object) => void>> }).handlers;
  for (const h of handlers.get("msg:custom") ?? []) h(content);
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
  FakeSocket.all = [];
  vi.useRealTimers();
});

describe("the relay", () => {
  test("opens one socket to the server and passes frames both ways", () => {
    const model = new FakeModel({ remote: WHERE });
    stop = relay(model, open, new MemoryStore());
    expect(FakeSocket.all.map((s) => s.url)).toEqual([WHERE.url]);
    const ws = FakeSocket.all[0];
    kernelSends(model, { type: "remote_send", text: "early" }); // not open yet: dropped
    ws.open();
    expect(model.sent).toEqual([{ type: "remote_open", token: null }]);
    kernelSends(model, { type: "remote_send", text: '{"v":2,"type":"join"}' });
    expect(ws.sent).toEqual(['{"v":2,"type":"join"}']);
    ws.frame({ v: 2, type: "state", table: 0 });
    expect(model.sent[1]).toEqual({ type: "remote_frame", text: '{"v":2,"type":"state","table":0}' });
  });

  test("a model without a server opens nothing", () => {
    const model = new FakeModel({ remote: {} });
    stop = relay(model, open, new MemoryStore());
    expect(FakeSocket.all).toHaveLength(0);
    expect(model.listeners("msg:custom")).toBe(0);
  });

  test("keeps the seat's token per server, room and name, and offers it on the next open", () => {
    const store = new MemoryStore();
    const first = new FakeModel({ remote: WHERE });
    stop = relay(first, open, store);
    FakeSocket.all[0].open();
    FakeSocket.all[0].frame({ v: 2, type: "welcome", table: 0, seat: 1, token: "t".repeat(32) });
    stop();
    // A page reload (or a kernel restart): a new model for the same seat gets the token back.
    const again = new FakeModel({ remote: WHERE });
    stop = relay(again, open, store);
    FakeSocket.all[1].open();
    expect(again.sent).toEqual([{ type: "remote_open", token: "t".repeat(32) }]);
    stop();
    const other = new FakeModel({ remote: { ...WHERE, name: "Bo" } });
    stop = relay(other, open, store);
    FakeSocket.all[2].open();
    expect(other.sent).toEqual([{ type: "remote_open", token: null }]);
  });

  test("reconnects by itself, waiting longer after each failure, and tells the kernel", () => {
    vi.useFakeTimers();
    const model = new FakeModel({ remote: WHERE });
    stop = relay(model, open, new MemoryStore());
    FakeSocket.all[0].open();
    FakeSocket.all[0].drop();
    expect(model.sent.at(-1)).toEqual({ type: "remote_closed" });
    vi.advanceTimersByTime(FIRST_DELAY - 1);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1].drop(); // the server is still down
    vi.advanceTimersByTime(FIRST_DELAY);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(FIRST_DELAY);
    expect(FakeSocket.all).toHaveLength(3);
    for (let i = 0; i < 8; i++) {
      FakeSocket.all.at(-1)?.drop();
      vi.advanceTimersByTime(LAST_DELAY);
    }
    expect(FakeSocket.all).toHaveLength(11); // never slower than LAST_DELAY
    FakeSocket.all.at(-1)?.open(); // back: the next drop waits the first delay again
    FakeSocket.all.at(-1)?.drop();
    vi.advanceTimersByTime(FIRST_DELAY);
    expect(FakeSocket.all).toHaveLength(12);
    expect(model.sent.filter((m) => m.type === "remote_open")).toHaveLength(2);
  });

  test("closing the widget closes the socket for good", () => {
    vi.useFakeTimers();
    const model = new FakeModel({ remote: WHERE });
    stop = relay(model, open, new MemoryStore());
    FakeSocket.all[0].open();
    stop();
    stop = null;
    vi.advanceTimersByTime(LAST_DELAY * 2);
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0].closed).toBe(true);
    expect(model.listeners("msg:custom")).toBe(0);
    expect(model.sent.some((m) => m.type === "remote_closed")).toBe(false);
  });

  test("the widget's initialize hook is the relay: one socket per model, not per view", () => {
    vi.stubGlobal("WebSocket", FakeSocket);
    const model = new FakeModel({ remote: WHERE, view: makeView() });
    const cleanup = widget.initialize({ model });
    const views = [1, 2].map(() => widget.render({ model, el: document.createElement("div") }));
    expect(FakeSocket.all).toHaveLength(1);
    for (const v of views) v();
    cleanup();
    vi.unstubAllGlobals();
  });
});

function move(actor: number, code: string): Step {
  return {
    actor,
    events: [{ type: "discard", player: actor, card: card(code) }],
    table: {
      players: [1, 2, 3, 4].map(() => ({ hand_size: 10, has_melded: false })),
      current_player: (actor + 1) % 4,
      stock_size: 60,
      discard_top: card(code),
      discard_size: 3,
      melds: [],
    },
  };
}

describe("a classroom seat's steps", () => {
  const table = mountedTable();
  const state = () => (table.el.querySelector(".rw-root") as HTMLElement).dataset.rwState;
  const status = () => table.el.querySelector(".rw-status")?.textContent;

  test("the next seat's move joins the animation instead of starting it again", () => {
    vi.useFakeTimers();
    const players = ["You", "Aino", "Eero", "Kaisa"].map((name) => ({
      name,
      hand_size: 10,
      has_melded: false,
    }));
    const model = table.mount({ view: makeView({ rev: 1, players }), bot_speed: "slow" });
    model.set("view", makeView({ rev: 2, players, steps: [move(1, "KS")] }));
    expect(status()).toBe("Aino discards K♠");
    vi.advanceTimersByTime(700);
    model.set("view", makeView({ rev: 3, players, steps: [move(1, "KS"), move(2, "QH")] }));
    expect(status()).toBe("Aino discards K♠"); // not shown again from the start
    vi.advanceTimersByTime(700);
    expect(status()).toBe("Eero discards Q♥");
    vi.advanceTimersByTime(1400);
    expect(state()).toBe("idle");
    // Shown already, then one more: only the new move is animated.
    model.set("view", makeView({ rev: 4, players, steps: [move(1, "KS"), move(2, "QH"), move(3, "2C")] }));
    expect(status()).toBe("Kaisa discards 2♣");
  });
});
